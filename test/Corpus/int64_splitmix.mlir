// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// SplitMix64 stream out[i] = mix(seed + i * golden): i64 mul, xor, shifts and an i64 seed push constant.

// CHECK: OpCapability Int64
// CHECK: OpEntryPoint GLCompute %{{.*}} "splitmix_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 256 1 1
// CHECK: %ulong = OpTypeInt 64 0
// CHECK: %[[PC:[_a-z0-9]+]] = OpTypeStruct %ulong{{$}}
// CHECK: OpVariable %{{.*}} PushConstant
// CHECK: OpFunction
// CHECK: OpLoad %ulong
// CHECK: OpUConvert %ulong
// CHECK: OpIMul %ulong %{{[0-9]+}} %ulong_11400714819323198485
// CHECK: OpIAdd %ulong
// CHECK: OpShiftRightLogical %ulong %{{[0-9]+}} %ulong_30
// CHECK: OpBitwiseXor %ulong
// CHECK: OpIMul %ulong %{{[0-9]+}} %ulong_13787848793156543929
// CHECK: OpShiftRightLogical %ulong %{{[0-9]+}} %ulong_27
// CHECK: OpShiftRightLogical %ulong %{{[0-9]+}} %ulong_31
// CHECK: OpStore

func.func @splitmix(%out: memref<65536xi64>, %seed: i64) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c256, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %golden = arith.constant -7046029254386353131 : i64
    %m1 = arith.constant -4658895280553007687 : i64
    %m2 = arith.constant -7723592293110705685 : i64
    %s30 = arith.constant 30 : i64
    %s27 = arith.constant 27 : i64
    %s31 = arith.constant 31 : i64
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %i32 = arith.index_castui %i : index to i32
    %i64 = arith.extui %i32 : i32 to i64
    %step = arith.muli %i64, %golden : i64
    %z0 = arith.addi %seed, %step : i64
    %a0 = arith.shrui %z0, %s30 : i64
    %z1 = arith.xori %z0, %a0 : i64
    %z2 = arith.muli %z1, %m1 : i64
    %a1 = arith.shrui %z2, %s27 : i64
    %z3 = arith.xori %z2, %a1 : i64
    %z4 = arith.muli %z3, %m2 : i64
    %a2 = arith.shrui %z4, %s31 : i64
    %z5 = arith.xori %z4, %a2 : i64
    memref.store %z5, %out[%i] : memref<65536xi64>
    gpu.terminator
  }
  return
}
