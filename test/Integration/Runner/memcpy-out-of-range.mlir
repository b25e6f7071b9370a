// gpu.memcpy of a 1000-element memref into a 10-element gpu.alloc, and
// gpu.memset of a view that reaches past its allocation, are refused with
// the sizes named, through the runner, an executable and spirv-cpu, instead
// of writing past the allocation (a SIGSEGV, or a heap overflow for
// host-visible memory). The copy within bounds before them works.
// RUN: not kiln-vulkan-runner %s 2>&1 | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s
// RUN: not kiln-spirv-cpu-runner %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not kiln-vulkan-runner %s -e memset_past 2>&1 | FileCheck %s --check-prefix=MEMSET
// RUN: not kiln-spirv-cpu-runner %s -e memset_past 2>&1 | FileCheck %s --check-prefix=CPU-MEMSET
// CHECK: in bounds
// CHECK: kiln-vulkan: gpu.memcpy's destination of 4000 bytes at offset 0 of a 40-byte device allocation (gpu.alloc) reaches past its bounds
// CPU: in bounds
// CPU: kiln-spirv-cpu: mgpuMemcpy's destination (gpu.memcpy) of 4000 bytes at offset 0 of a 40-byte allocation (gpu.alloc) reaches past its end
// MEMSET: kiln-vulkan: gpu.memset of 400 bytes at offset 0 of a 40-byte device allocation (gpu.alloc) reaches past its bounds
// CPU-MEMSET: kiln-spirv-cpu: mgpuMemset (gpu.memset) of 400 bytes at offset 0 of a 40-byte allocation (gpu.alloc) reaches past its end

func.func @main() {
  %c10 = arith.constant 10 : index
  %c1000 = arith.constant 1000 : index
  %small = memref.alloc(%c10) : memref<?xf32>
  %host = memref.alloc(%c1000) : memref<?xf32>
  %dev = gpu.alloc(%c10) : memref<?xf32>
  gpu.memcpy %dev, %small : memref<?xf32>, memref<?xf32>
  vector.print str "in bounds\n"
  gpu.memcpy %dev, %host : memref<?xf32>, memref<?xf32>
  vector.print str "not reached\n"
  return
}

func.func @memset_past() {
  %c10 = arith.constant 10 : index
  %dev = gpu.alloc(%c10) : memref<?xf32>
  %view = memref.reinterpret_cast %dev to offset: [0], sizes: [100], strides: [1] : memref<?xf32> to memref<100xf32>
  %zero = arith.constant 0.0 : f32
  gpu.memset %view, %zero : memref<100xf32>, f32
  vector.print str "not reached\n"
  return
}
