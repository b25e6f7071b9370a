// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// Scalars and the metadata of a dynamic memref are fields of one push-constant
// block; the dynamic memref becomes a runtime array indexed with
// offset + i * stride. The original gpu.func stays for the host.
// CHECK-LABEL: gpu.module @m
// CHECK: spirv.module @__spv__m Logical GLSL450
// CHECK: spirv.GlobalVariable @__kiln_push_constants_scale : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], f32 [12], i32 [16])>, PushConstant>
// CHECK: spirv.func @scale(%[[OUT:.*]]: !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}, %[[IN:.*]]: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>})
// CHECK: %[[PC:.*]] = spirv.mlir.addressof @__kiln_push_constants_scale
// CHECK: %[[C0:.*]] = spirv.Constant 0 : i32
// CHECK: %[[P0:.*]] = spirv.AccessChain %[[PC]][%[[C0]]]
// CHECK: %[[OFF:.*]] = spirv.Load "PushConstant" %[[P0]] : i32
// CHECK: %[[C2:.*]] = spirv.Constant 2 : i32
// CHECK: %[[P2:.*]] = spirv.AccessChain %[[PC]][%[[C2]]]
// CHECK: %[[STRIDE:.*]] = spirv.Load "PushConstant" %[[P2]] : i32
// CHECK: %[[C3:.*]] = spirv.Constant 3 : i32
// CHECK: %[[P3:.*]] = spirv.AccessChain %[[PC]][%[[C3]]]
// CHECK: %[[K:.*]] = spirv.Load "PushConstant" %[[P3]] : f32
// CHECK: %[[MUL:.*]] = spirv.IMul %{{.*}}, %[[STRIDE]] : i32
// CHECK: %[[IDX:.*]] = spirv.IAdd %[[OFF]], %[[MUL]] : i32
// CHECK: spirv.AccessChain %[[IN]][%{{.*}}, %[[IDX]]]
// CHECK: spirv.FMul %{{.*}}, %[[K]] : f32
// CHECK: gpu.func @scale(%{{.*}}: memref<?xf32, strided<[?], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @scale(%in: memref<?xf32, strided<[?], offset: ?>>, %k: f32, %n: index, %out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %x = memref.load %in[%i] : memref<?xf32, strided<[?], offset: ?>>
        %y = arith.mulf %x, %k : f32
        memref.store %y, %out[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
}
