// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv --verify-diagnostics | FileCheck %s

// An integer generic_atomic_rmw: an atomic first read, then a loop that runs
// the body and a relaxed compare-exchange until the element held what the
// body saw.
// CHECK-LABEL: spirv.func @k
// CHECK: %[[PTR:.*]] = spirv.AccessChain
// CHECK: %[[INIT:.*]] = spirv.AtomicIAdd <Device> <None> %[[PTR]]
// CHECK: spirv.mlir.loop
// CHECK: spirv.GL.SMax
// CHECK: %[[FOUND:.*]] = spirv.AtomicCompareExchange <Device> <None> <None> %[[PTR]]
// CHECK: spirv.INotEqual %[[FOUND]]
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %i : index to i32
      %old = memref.generic_atomic_rmw %a[%c0] : memref<64xi32> {
      ^bb0(%cur: i32):
        %m = arith.maxsi %cur, %v : i32
        memref.atomic_yield %m : i32
      }
      memref.store %old, %a[%i] : memref<64xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%i] : memref<64xf32>
      // expected-error @+1 {{'memref.generic_atomic_rmw' op on 'f32' elements has no Vulkan lowering: SPIR-V's compare-exchange takes 32- and 64-bit integers only}}
      %old = memref.generic_atomic_rmw %a[%c0] : memref<64xf32> {
      ^bb0(%cur: f32):
        %m = arith.maximumf %cur, %x : f32
        memref.atomic_yield %m : f32
      }
      gpu.return
    }
  }
}
