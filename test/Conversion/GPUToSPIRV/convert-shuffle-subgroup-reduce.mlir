// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// gpu.shuffle of a width the target env does not fix as the subgroup size:
// one GroupNonUniformShuffle from a lane computed inside the segment.
// Uniform and bitwise subgroup reductions: GroupNonUniform* Reduce.
// CHECK-LABEL: spirv.func @k
// CHECK: %[[LANE:.*]] = spirv.Load "Input" %{{.*}} : i32
// CHECK: %[[MASK:.*]] = spirv.ISub %{{.*}}, %{{.*}} : i32
// CHECK: %[[POS:.*]] = spirv.BitwiseAnd %[[LANE]], %[[MASK]] : i32
// CHECK: spirv.UGreaterThanEqual %[[POS]], %{{.*}} : i32
// CHECK: %[[SRC:.*]] = spirv.Select
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
