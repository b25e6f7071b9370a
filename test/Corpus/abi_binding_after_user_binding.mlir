// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Gather out[i] = src[idx[i]], only idx user-bound at (0, 0): src moves on to binding 1, out keeps position 2.

// CHECK: OpEntryPoint GLCompute %{{.*}} "gather"
// CHECK-DAG: OpDecorate %gather_arg_0 Binding 1
// CHECK-DAG: OpDecorate %gather_arg_1 Binding 0
// CHECK-DAG: OpDecorate %gather_arg_2 Binding 2

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%src: memref<1024xf32>,
                     %idx: memref<256xi32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
                     %out: memref<256xf32>) kernel {
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %j32 = memref.load %idx[%i] : memref<256xi32>
      %j = arith.index_castui %j32 : i32 to index
      %v = memref.load %src[%j] : memref<1024xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
  }

  func.func @main(%src: memref<1024xf32>, %idx: memref<256xi32>,
                  %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@gather
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%src : memref<1024xf32>, %idx : memref<256xi32>, %out : memref<256xf32>)
    return
  }
}
