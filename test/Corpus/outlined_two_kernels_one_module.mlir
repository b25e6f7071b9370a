// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// One pre-outlined gpu.module with two kernels (fill, gather) launched by gpu.launch_func: one .spv, two entry points.

// CHECK-DAG: OpEntryPoint GLCompute %[[FILL:[a-z_0-9]+]] "fill"
// CHECK-DAG: OpEntryPoint GLCompute %[[GATHER:[a-z_0-9]+]] "gather"
// CHECK-DAG: OpExecutionMode %[[FILL]] LocalSize 128 1 1
// CHECK-DAG: OpExecutionMode %[[GATHER]] LocalSize 64 1 1
// fill's buffer is auto-assigned binding 0; gather's user-given binding 0 is kept and the others skip it.
// CHECK-DAG: OpDecorate %fill_arg_0 Binding 0
// CHECK-DAG: OpDecorate %gather_arg_0 Binding 1
// CHECK-DAG: OpDecorate %gather_arg_1 Binding 0
// CHECK-DAG: OpDecorate %gather_arg_2 Binding {{[2-9]}}
// CHECK: %[[FILL]] = OpFunction
// CHECK: OpConvertUToF %float
// CHECK: OpFunctionEnd
// CHECK: %[[GATHER]] = OpFunction
// CHECK: OpAccessChain %_ptr_StorageBuffer_uint %gather_arg_1
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %gather_arg_0
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %gather_arg_2
// CHECK: OpFunctionEnd

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // buf[i] = float(i)
    gpu.func @fill(%buf: memref<1024xf32>) kernel {
      %c128 = arith.constant 128 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c128 : index
      %i = arith.addi %base, %tx : index
      %i32 = arith.index_castui %i : index to i32
      %f = arith.uitofp %i32 : i32 to f32
      memref.store %f, %buf[%i] : memref<1024xf32>
      gpu.return
    }
    // out[i] = src[idx[i]]
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

  func.func @main(%buf: memref<1024xf32>, %idx: memref<256xi32>,
                  %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@fill
        blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%buf : memref<1024xf32>)
    gpu.launch_func @kernels::@gather
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<1024xf32>, %idx : memref<256xi32>, %out : memref<256xf32>)
    return
  }
}
