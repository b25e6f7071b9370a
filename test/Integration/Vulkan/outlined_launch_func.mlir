// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Upstream mlir-vulkan-runner style: outlined gpu.module, user spirv.target_env and entry_point_abi, gpu.launch_func.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [3.3, 3.3, 3.3, 3.3, 3.3, 3.3, 3.3, 3.3]

// Written like upstream's mlir-vulkan-runner tests: an explicit SPIR-V 1.0
// target env and entry point ABI, one thread per block, the block id as index.
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
    %c0 = arith.constant 0 : index
    %cst1 = arith.constant 1 : index
    %cst8 = arith.constant 8 : index
    scf.for %i = %c0 to %cst8 step %cst1 {
      memref.store %value1, %arg0[%i] : memref<8xf32>
      memref.store %value2, %arg1[%i] : memref<8xf32>
      memref.store %value0, %arg2[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@kernel_add
        blocks in (%cst8, %cst1, %cst1) threads in (%cst1, %cst1, %cst1)
        args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
    %arg6 = memref.cast %arg2 : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%arg6) : (memref<*xf32>) -> ()
    memref.dealloc %arg0 : memref<8xf32>
    memref.dealloc %arg1 : memref<8xf32>
    memref.dealloc %arg2 : memref<8xf32>
    return
  }
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
