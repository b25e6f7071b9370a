// RUN: not kiln-vulkan-runner %s --device=no-such-device 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not kiln-vulkan-runner %s --target-env=vulkan-1.1 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not kiln-vulkan-runner %s -e nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// Errors are messages and a non-zero exit, never a crash: an unknown device,
// a kernel the target env cannot take (vulkan-1.1 caps invocations at 128),
// an unknown entry point.

// DEVICE: kiln-vulkan: no Vulkan device named 'no-such-device'; the devices are:
// DEVICE-NEXT: 0: {{.+}}
// LOWER: errors.mlir:[[@LINE+7]]:3: error: block size (256, 1, 1) of kernel 'main_kernel' is above the target env's limit in x: 256 > 128 (max_compute_workgroup_size)
// ENTRY: Error: entry point not found

func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %m = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %m[%tx] : memref<256xf32>
    gpu.terminator
  }
  memref.dealloc %m : memref<256xf32>
  return
}
