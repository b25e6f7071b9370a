// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Four-wide vectorized AXPY with vector.load / vector.store of vector<4xf32> from scalar f32 buffers.

// CHECK: OpEntryPoint GLCompute %{{.*}} "axpy_vec4_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// The buffers' vector accesses are at 4 * i: they are arrays of vec4, as
// glslc declares `buffer { vec4 v[]; }`, and element 4 * i is vector i.
// CHECK: OpDecorate %[[ARR:_arr_v4float_uint_1024]] ArrayStride 16
// CHECK: %v4float = OpTypeVector %float 4
// CHECK: %[[ARR]] = OpTypeArray %v4float %uint_1024
// CHECK: OpFunction
// CHECK: %[[I:[0-9]+]] = OpIAdd %uint
// CHECK-NOT: OpIMul %uint %{{[0-9]+}} %uint_4
// Logical addressing: no pointer bitcasts from float to v4float pointers.
// CHECK-NOT: OpBitcast %_ptr_StorageBuffer_v4float
// CHECK: OpAccessChain %_ptr_StorageBuffer_v4float %{{.*}} %uint_0 %[[I]]
// CHECK: OpLoad %v4float
// CHECK: %[[Y:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_v4float %{{.*}} %uint_0 %[[I]]
// CHECK: OpFMul %v4float
// CHECK: %[[R:[0-9]+]] = OpFAdd %v4float
// CHECK: OpStore %[[Y]] %[[R]]

func.func @axpy_vec4(%x: memref<4096xf32>, %y: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k4 = arith.constant 4 : index
    %a = arith.constant dense<3.0> : vector<4xf32>
    %base = arith.muli %bx, %sx : index
    %t = arith.addi %base, %tx : index
    %i = arith.muli %t, %k4 : index
    %xv = vector.load %x[%i] : memref<4096xf32>, vector<4xf32>
    %yv = vector.load %y[%i] : memref<4096xf32>, vector<4xf32>
    %ax = arith.mulf %xv, %a : vector<4xf32>
    %r = arith.addf %ax, %yv : vector<4xf32>
    vector.store %r, %y[%i] : memref<4096xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}
