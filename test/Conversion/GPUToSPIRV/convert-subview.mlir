// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// A subview of a 2-D dynamic memref inside the kernel composes its offset
// and strides with the argument's metadata from push constants, and
// memref.dim reads the size field.
// CHECK-LABEL: spirv.func @rows
// CHECK-DAG: %[[OFF:.*]] = spirv.Load "PushConstant" %{{.*}} : i32
// CHECK-DAG: %[[ROWS:.*]] = spirv.Load "PushConstant" %{{.*}} : i32
// CHECK: spirv.ULessThan %{{.*}}, %[[ROWS]]
// CHECK: spirv.IMul
// CHECK: spirv.IAdd %[[OFF]]
// CHECK: spirv.AccessChain
// CHECK: spirv.Store "StorageBuffer"
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @rows(%a: memref<?x?xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.thread_id x
      %rows = memref.dim %a, %c0 : memref<?x?xf32>
      %ok = arith.cmpi ult, %i, %rows : index
      scf.if %ok {
        %row = memref.subview %a[%i, 0] [1, 4] [1, 2] : memref<?x?xf32> to memref<4xf32, strided<[2], offset: ?>>
        %one = arith.constant 1.0 : f32
        memref.store %one, %row[%c1] : memref<4xf32, strided<[2], offset: ?>>
      }
      gpu.return
    }
  }
}
