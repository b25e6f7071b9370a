// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// Block-wide max via gpu.subgroup_reduce maximumf is rejected on vulkan-1.1, which lacks GroupNonUniformArithmetic.

// CHECK: error: 'gpu.subgroup_reduce' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability GroupNonUniformArithmetic

func.func @subgroup_max(%in: memref<4096xf32>, %out: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<4096xf32>
    %m = gpu.subgroup_reduce maximumf %v : (f32) -> f32
    memref.store %m, %out[%i] : memref<4096xf32>
    gpu.terminator
  }
  return
}
