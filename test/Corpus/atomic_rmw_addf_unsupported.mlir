// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// Scatter-add of f32 values with memref.atomic_rmw addf: OpAtomicFAddEXT,
// which the vulkan-1.1 profile lacks (the error names the capability) and the
// lavapipe profile has.

// CHECK: error: 'memref.atomic_rmw' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability AtomicFloat32AddEXT, extension SPV_EXT_shader_atomic_float_add; target env 'vulkan-1.1'
// CHECK-NEXT: %old = memref.atomic_rmw addf

func.func @scatter_add(%idx: memref<4096xi32>, %val: memref<4096xf32>,
                       %acc: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %j32 = memref.load %idx[%i] : memref<4096xi32>
    %j = arith.index_cast %j32 : i32 to index
    %v = memref.load %val[%i] : memref<4096xf32>
    %old = memref.atomic_rmw addf %v, %acc[%j] : (f32, memref<1024xf32>) -> f32
    gpu.terminator
  }
  return
}
