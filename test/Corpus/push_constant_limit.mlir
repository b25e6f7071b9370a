// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// Four rank-4 dynamic tensors need 4 x 36 = 144 bytes of metadata, over the 128-byte push-constant minimum.

// CHECK: error: kernel 'sum3_kernel' needs 144 bytes of push constants for its scalars and memref metadata, above the 128 bytes every Vulkan device provides (maxPushConstantsSize)

func.func @sum3(%a: memref<?x?x?x?xf32>, %b: memref<?x?x?x?xf32>,
                %c: memref<?x?x?x?xf32>, %d: memref<?x?x?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %x = memref.load %a[%k0, %k0, %k0, %tx] : memref<?x?x?x?xf32>
    %y = memref.load %b[%k0, %k0, %k0, %tx] : memref<?x?x?x?xf32>
    %z = memref.load %c[%k0, %k0, %k0, %tx] : memref<?x?x?x?xf32>
    %s0 = arith.addf %x, %y : f32
    %s1 = arith.addf %s0, %z : f32
    memref.store %s1, %d[%k0, %k0, %k0, %tx] : memref<?x?x?x?xf32>
    gpu.terminator
  }
  return
}
