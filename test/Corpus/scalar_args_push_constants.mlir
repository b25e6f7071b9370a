// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Strided SAXPY y[i*stride] = alpha * x[i] + y[i*stride] + bias with f32, i32 and index host scalars as push constants.

// CHECK: OpEntryPoint GLCompute %{{.*}} "saxpy_strided_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// Outlined kernel arguments are (n, stride, x, y, alpha, bias); the scalars fill the push-constant block in that order:
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 0 Offset 0
// CHECK-NEXT: OpMemberDecorate %[[PC]] 1 Offset 4
// CHECK-NEXT: OpMemberDecorate %[[PC]] 2 Offset 8
// CHECK-NEXT: OpMemberDecorate %[[PC]] 3 Offset 12
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: %[[PC]] = OpTypeStruct %uint %uint %float %uint{{$}}
// CHECK: %[[PCVAR:.*]] = OpVariable %{{.*}} PushConstant
// CHECK: OpFunction
// CHECK: %[[PN:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_0
// CHECK-NEXT: %[[N:[0-9]+]] = OpLoad %uint %[[PN]]
// CHECK: %[[PA:[0-9]+]] = OpAccessChain %_ptr_PushConstant_float %[[PCVAR]] %uint_2
// CHECK-NEXT: %[[ALPHA:[0-9]+]] = OpLoad %float %[[PA]]
// CHECK: %[[PB:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_3
// CHECK-NEXT: %[[BIAS:[0-9]+]] = OpLoad %uint %[[PB]]
// CHECK: OpULessThan %bool %{{[0-9]+}} %[[N]]
// CHECK: OpSelectionMerge
// CHECK: OpFMul %float %[[ALPHA]]
// CHECK: OpConvertSToF %float %[[BIAS]]
// CHECK: OpFAdd %float

func.func @saxpy_strided(%alpha: f32, %x: memref<1024xf32>, %y: memref<4096xf32>,
                         %n: index, %stride: index, %bias: i32) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %j = arith.muli %i, %stride : index
      %xv = memref.load %x[%i] : memref<1024xf32>
      %yv = memref.load %y[%j] : memref<4096xf32>
      %ax = arith.mulf %alpha, %xv : f32
      %b = arith.sitofp %bias : i32 to f32
      %s = arith.addf %ax, %yv : f32
      %r = arith.addf %s, %b : f32
      memref.store %r, %y[%j] : memref<4096xf32>
    }
    gpu.terminator
  }
  return
}
