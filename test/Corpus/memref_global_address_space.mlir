// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Element-wise sqrt on buffers typed #gpu.address_space<global>, which docs/abi.md accepts as kernel arguments.

// CHECK: OpEntryPoint GLCompute %{{.*}} "sqrt_global_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK-DAG: OpDecorate %{{.*}} Binding 0
// CHECK-DAG: OpDecorate %{{.*}} Binding 1
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_StorageBuffer_float
// CHECK: OpExtInst %float %{{[0-9]+}} Sqrt
// CHECK: OpAccessChain %_ptr_StorageBuffer_float
// CHECK-NEXT: OpStore

func.func @sqrt_global(%in: memref<1024xf32, #gpu.address_space<global>>,
                       %out: memref<1024xf32, #gpu.address_space<global>>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<1024xf32, #gpu.address_space<global>>
    %r = math.sqrt %v : f32
    memref.store %r, %out[%i] : memref<1024xf32, #gpu.address_space<global>>
    gpu.terminator
  }
  return
}
