// --robust-buffer-access (KILN_VULKAN_ROBUST=1): out-of-bounds reads of a
// buffer argument return zero and out-of-bounds writes are dropped, as
// Vulkan's robustness features define, JIT and ahead of time; in-bounds
// accesses are unchanged.
// RUN: kiln-vulkan-runner %s --robust-buffer-access --validate | FileCheck %s
// RUN: env KILN_VULKAN_ROBUST=1 kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: %t.exe --robust-buffer-access --validate | FileCheck %s
// RUN: %t.exe --help | FileCheck %s --check-prefix=HELP
// HELP: --robust-buffer-access

// y[i] = x[i] + x[i + 2^20] (the second read is far past the end), and a
// write to x[i + 2^20] that must not land anywhere.
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %hx = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %hx[%i] : memref<16xf32>
  }
  %x = gpu.alloc(%c16) : memref<?xf32>
  %y = gpu.alloc(%c16) : memref<?xf32>
  %hxd = memref.cast %hx : memref<16xf32> to memref<?xf32>
  gpu.memcpy %x, %hxd : memref<?xf32>, memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %far = arith.constant 1048576 : index
    %j = arith.addi %tx, %far : index
    %a = memref.load %x[%tx] : memref<?xf32>
    %b = memref.load %x[%j] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %y[%tx] : memref<?xf32>
    %junk = arith.constant 99.0 : f32
    memref.store %junk, %x[%j] : memref<?xf32>
    gpu.terminator
  }
  %hy = memref.alloc() : memref<16xf32>
  %hyd = memref.cast %hy : memref<16xf32> to memref<?xf32>
  gpu.memcpy %hyd, %y : memref<?xf32>, memref<?xf32>
  gpu.memcpy %hxd, %x : memref<?xf32>, memref<?xf32>
  %py = memref.cast %hy : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%py) : (memref<*xf32>) -> ()
  %px = memref.cast %hx : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%px) : (memref<*xf32>) -> ()
  return
}
