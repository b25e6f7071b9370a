// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Pre-outlined kernel y = x * x keeps its user-given spirv.entry_point_abi and interface_var_abi bindings.

// CHECK: OpEntryPoint GLCompute %{{.*}} "square"
// CHECK: OpExecutionMode %{{.*}} LocalSize 32 2 1
// CHECK-DAG: OpDecorate %[[X:[a-z_0-9]+]] Binding 5
// CHECK-DAG: OpDecorate %[[X]] DescriptorSet 1
// CHECK-DAG: OpDecorate %[[Y:[a-z_0-9]+]] Binding 2
// CHECK-DAG: OpDecorate %[[Y]] DescriptorSet 0
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %[[X]] %uint_0
// CHECK: OpFMul %float
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %[[Y]] %uint_0
// CHECK-NEXT: OpStore

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square(
        %x: memref<1024xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(1, 5)>},
        %y: memref<1024xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2)>})
        kernel attributes {
          spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 2, 1]>} {
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %base = arith.muli %bx, %c64 : index
      %row = arith.muli %ty, %c32 : index
      %off = arith.addi %base, %row : index
      %i = arith.addi %off, %tx : index
      %v = memref.load %x[%i] : memref<1024xf32>
      %sq = arith.mulf %v, %v : f32
      memref.store %sq, %y[%i] : memref<1024xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@square
        blocks in (%c16, %c1, %c1) threads in (%c32, %c2, %c1)
        args(%x : memref<1024xf32>, %y : memref<1024xf32>)
    return
  }
}
