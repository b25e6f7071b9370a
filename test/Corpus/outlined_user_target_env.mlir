// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// f16 ReLU in a gpu.module with its own spirv.target_env (Float16, 16-bit storage), which wins over --target-env.

// CHECK: ; Version: 1.3
// CHECK-DAG: OpCapability Float16
// CHECK-DAG: OpCapability StorageBuffer16BitAccess
// CHECK-DAG: OpExtension "SPV_KHR_16bit_storage"
// CHECK: OpEntryPoint GLCompute %{{.*}} "relu_half"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: %half = OpTypeFloat 16
// CHECK: OpFunction
// CHECK: OpLoad %half
// CHECK: OpExtInst %half %{{[0-9]+}} FMax
// CHECK: OpStore

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {
      spirv.target_env = #spirv.target_env<
          #spirv.vce<v1.3, [Shader, Float16, StorageBuffer16BitAccess],
                     [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>,
          api=Vulkan, #spirv.resource_limits<>>} {
    gpu.func @relu_half(%buf: memref<2048xf16>) kernel {
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f16
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %buf[%i] : memref<2048xf16>
      %r = arith.maxnumf %v, %zero : f16
      memref.store %r, %buf[%i] : memref<2048xf16>
      gpu.return
    }
  }

  func.func @main(%buf: memref<2048xf16>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@relu_half
        blocks in (%c32, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<2048xf16>)
    return
  }
}
