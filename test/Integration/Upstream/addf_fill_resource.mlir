// RUN: %mlir_opt %s -test-vulkan-runner-pipeline \
// RUN:   | %mlir_runner - -e main --entry-point-result=void \
// RUN:       --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s
// Drop-in for upstream: a test written for mlir-runner's Vulkan path (raw
// SPIR-V, {pointer, size} arguments, fillResource helpers) runs on Kiln's
// runtime.

// CHECK: [3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3]
module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @kernel_add(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %0 = gpu.block_id x
      %1 = memref.load %arg0[%0] : memref<8xf32>
      %2 = memref.load %arg1[%0] : memref<8xf32>
      %3 = arith.addf %1, %2 : f32
      memref.store %3, %arg2[%0] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %arg0 = memref.alloc() : memref<8xf32>
    %arg1 = memref.alloc() : memref<8xf32>
    %arg2 = memref.alloc() : memref<8xf32>
    %value0 = arith.constant 0.0 : f32
    %value1 = arith.constant 1.1 : f32
    %value2 = arith.constant 2.2 : f32
    %cast0 = memref.cast %arg0 : memref<8xf32> to memref<?xf32>
    %cast1 = memref.cast %arg1 : memref<8xf32> to memref<?xf32>
    %cast2 = memref.cast %arg2 : memref<8xf32> to memref<?xf32>
    call @fillResource1DFloat(%cast0, %value1) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%cast1, %value2) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%cast2, %value0) : (memref<?xf32>, f32) -> ()

    %cst1 = arith.constant 1 : index
    %cst8 = arith.constant 8 : index
    gpu.launch_func @kernels::@kernel_add
        blocks in (%cst8, %cst1, %cst1) threads in (%cst1, %cst1, %cst1)
        args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
    %arg6 = memref.cast %arg2 : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%arg6) : (memref<*xf32>) -> ()
    return
  }
  func.func private @fillResource1DFloat(%0 : memref<?xf32>, %1 : f32)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
