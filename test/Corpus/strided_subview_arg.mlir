// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Negates a 4x4 window of an 8x8 matrix passed to the kernel as a host-side strided subview (dynamic offset).

// CHECK: OpEntryPoint GLCompute %{{.*}} "negate_window_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 4 4 1
// The window's offset, sizes and strides are push-constant fields 0 to 4:
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 4 Offset 16
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: %[[PC]] = OpTypeStruct %uint %uint %uint %uint %uint{{$}}
// CHECK: %[[PCVAR:.*]] = OpVariable %{{.*}} PushConstant
// CHECK: %_runtimearr_float = OpTypeRuntimeArray %float
// CHECK: OpFunction
// CHECK: %[[P0:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_0
// CHECK-NEXT: %[[OFF:[0-9]+]] = OpLoad %uint %[[P0]]
// The type's static strides [8, 1] are constants: the row is scaled by 8 and
// the column added as is; only the offset comes from the push constants.
// CHECK: %[[ROWOFF:[0-9]+]] = OpIMul %uint %{{[0-9]+}} %uint_8
// CHECK-NEXT: %[[ROW:[0-9]+]] = OpIAdd %uint %[[OFF]] %[[ROWOFF]]
// CHECK-NEXT: OpIAdd %uint %[[ROW]] %{{[0-9]+}}
// CHECK: OpFNegate %float
// CHECK: OpStore

func.func @negate_window(%m: memref<8x8xf32>, %r: index, %c: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %win = memref.subview %m[%r, %c] [4, 4] [1, 1]
      : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
    %v = memref.load %win[%ty, %tx] : memref<4x4xf32, strided<[8, 1], offset: ?>>
    %n = arith.negf %v : f32
    memref.store %n, %win[%ty, %tx] : memref<4x4xf32, strided<[8, 1], offset: ?>>
    gpu.terminator
  }
  return
}
