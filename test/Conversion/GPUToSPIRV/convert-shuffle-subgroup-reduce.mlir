// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// gpu.shuffle of a width the target env does not fix as the subgroup size,
// with MLIR's semantics: lane k reads lane k - 2 (up), valid where both
// lanes are below the width (unsigned, so k - 2 < 0 is out of range too),
// and the lane's own value otherwise: one GroupNonUniformShuffle.
// Uniform and bitwise subgroup reductions: GroupNonUniform* Reduce.
// CHECK-LABEL: spirv.func @k
// CHECK: %[[LANE:.*]] = spirv.Load "Input" %{{.*}} : i32
// CHECK: %[[FROM:.*]] = spirv.ISub %[[LANE]], %[[OFF:.*]] : i32
// CHECK: %[[LANEIN:.*]] = spirv.ULessThan %[[LANE]], %[[W:.*]] : i32
// CHECK: %[[FROMIN:.*]] = spirv.ULessThan %[[FROM]], %[[W]] : i32
// CHECK: %[[VALID:.*]] = spirv.LogicalAnd %[[LANEIN]], %[[FROMIN]] : i1
// CHECK: %[[SRC:.*]] = spirv.Select %[[VALID]], %[[FROM]], %[[LANE]] : i1, i32
// CHECK: spirv.GroupNonUniformShuffle <Subgroup> %{{.*}}, %[[SRC]] : f32, i32
// CHECK: spirv.GroupNonUniformIAdd <Subgroup> <Reduce> %{{.*}} : i32 -> i32
// CHECK: spirv.GroupNonUniformBitwiseXor <Subgroup> <Reduce> %{{.*}} : i32 -> i32
// CHECK: spirv.GroupNonUniformFMax <Subgroup> <Reduce> %{{.*}} : f32 -> f32
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformShuffle, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>, %b: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      %n = memref.load %b[%i] : memref<64xi32>
      %off = arith.constant 2 : i32
      %w = arith.constant 16 : i32
      %s, %valid = gpu.shuffle up %x, %off, %w : f32
      %r = gpu.subgroup_reduce add %n uniform : (i32) -> i32
      %q = gpu.subgroup_reduce xor %r : (i32) -> i32
      %m = gpu.subgroup_reduce maximumf %s uniform : (f32) -> f32
      memref.store %m, %a[%i] : memref<64xf32>
      memref.store %q, %b[%i] : memref<64xi32>
      gpu.return
    }
  }
}
