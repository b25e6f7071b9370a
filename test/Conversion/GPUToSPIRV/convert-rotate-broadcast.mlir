// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// gpu.rotate: one GroupNonUniformShuffle from lane (k + offset) % width of
// the invocation's group of `width` lanes, valid where k < width.
// gpu.subgroup_broadcast: GroupNonUniformBroadcast from a constant lane,
// GroupNonUniformShuffle from any other, and from the first active lane a
// shuffle from the lowest bit of a ballot.
// CHECK-LABEL: spirv.func @k
// CHECK: %[[C3:.*]] = spirv.Constant 3 : i32
// CHECK: %[[X:.*]] = spirv.Load "StorageBuffer" %{{.*}} : f32
// CHECK: %[[N:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK: %[[LANE:.*]] = spirv.Load "Input" %{{.*}} : i32
// CHECK: %[[OFF:.*]] = spirv.Constant 1 : i32
// CHECK: %[[SUM:.*]] = spirv.IAdd %[[LANE]], %[[OFF]] : i32
// CHECK: %[[MASK:.*]] = spirv.Constant 15 : i32
// CHECK: %[[MOVED:.*]] = spirv.BitwiseAnd %[[SUM]], %[[MASK]] : i32
// CHECK: %[[NOTMASK:.*]] = spirv.Constant -16 : i32
// CHECK: %[[GROUP:.*]] = spirv.BitwiseAnd %[[LANE]], %[[NOTMASK]] : i32
// CHECK: %[[FROM:.*]] = spirv.IAdd %[[MOVED]], %[[GROUP]] : i32
// CHECK: %[[W:.*]] = spirv.Constant 16 : i32
// CHECK: %[[VALID:.*]] = spirv.ULessThan %[[LANE]], %[[W]] : i32
// CHECK: %[[SRC:.*]] = spirv.Select %[[VALID]], %[[FROM]], %[[LANE]] : i1, i32
// CHECK: spirv.GroupNonUniformShuffle <Subgroup> %[[X]], %[[SRC]] : f32, i32
// CHECK: spirv.GroupNonUniformBroadcast <Subgroup> %[[X]], %[[C3]] : f32, i32
// CHECK: spirv.GroupNonUniformShuffle <Subgroup> %[[X]], %[[N]] : f32, i32
// CHECK: %[[BALLOT:.*]] = spirv.GroupNonUniformBallot <Subgroup> %{{.*}} : vector<4xi32>
// CHECK: %[[FIRST:.*]] = spirv.GroupNonUniformBallotFindLSB <Subgroup> %[[BALLOT]] : vector<4xi32>, i32
// CHECK: spirv.GroupNonUniformShuffle <Subgroup> %[[X]], %[[FIRST]] : f32, i32
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformShuffle, GroupNonUniformBallot], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>, %b: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      %n = memref.load %b[%i] : memref<64xi32>
      %r, %valid = gpu.rotate %x, 1, 16 : f32
      %c3 = arith.constant 3 : i32
      %s = gpu.subgroup_broadcast %x, specific_lane %c3 : f32
      %t = gpu.subgroup_broadcast %x, specific_lane %n : f32
      %u = gpu.subgroup_broadcast %x, first_active_lane : f32
      %rs = arith.addf %r, %s : f32
      %tu = arith.addf %t, %u : f32
      %sum = arith.addf %rs, %tu : f32
      memref.store %sum, %a[%i] : memref<64xf32>
      gpu.return
    }
  }
}
