// A gpu.alloc larger than the device can hold stops the run with a message
// that names the allocation, its size and the device's device-local memory,
// JIT and ahead of time.
// RUN: not kiln-vulkan-runner %s 2>&1 | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s
// CHECK: kiln-vulkan: cannot allocate 17592186044416 bytes (16384.0 GiB) for an mgpuMemAlloc (gpu.alloc) on device '{{.+}}', which has {{[0-9]+}} bytes ({{[0-9.]+}} GiB) of device-local memory: {{vkCreateBuffer|vkAllocateMemory}} failed: VK_ERROR_OUT_OF_{{DEVICE|HOST}}_MEMORY

func.func @main() {
  %n = arith.constant 17592186044416 : index
  %m = gpu.alloc (%n) : memref<?xi8>
  gpu.dealloc %m : memref<?xi8>
  return
}
