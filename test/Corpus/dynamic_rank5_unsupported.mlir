// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// A rank-5 dynamic memref kernel argument exceeds the push-constant metadata ABI (ranks 1 to 4) and is rejected.

// CHECK: error: kernel 'zero5_kernel' argument 0 of type 'memref<?x?x?x?x?xf32>' is not supported: memrefs with dynamic shapes or layouts must be strided and of rank 1 to 4

func.func @zero5(%t: memref<?x?x?x?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %t[%k0, %k0, %k0, %k0, %tx] : memref<?x?x?x?x?xf32>
    gpu.terminator
  }
  return
}
