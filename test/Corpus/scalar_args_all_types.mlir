// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Sums i8, i16, f16, f64 and i64 scalars, negated unless an i1 flag is set: every scalar push-constant kind.

// CHECK-DAG: OpCapability Int8
// CHECK-DAG: OpCapability Int16
// CHECK-DAG: OpCapability Float16
// CHECK-DAG: OpCapability Float64
// CHECK-DAG: OpCapability Int64
// CHECK: OpEntryPoint GLCompute %{{.*}} "mixed_scalars_kernel"
// Kernel argument order (b, h, x, d, l, flag): i8 and i16 as i32, f16 as f32, f64 and i64 8-aligned, i1 as i32.
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 0 Offset 0
// CHECK-NEXT: OpMemberDecorate %[[PC]] 1 Offset 4
// CHECK-NEXT: OpMemberDecorate %[[PC]] 2 Offset 8
// CHECK-NEXT: OpMemberDecorate %[[PC]] 3 Offset 16
// CHECK-NEXT: OpMemberDecorate %[[PC]] 4 Offset 24
// CHECK-NEXT: OpMemberDecorate %[[PC]] 5 Offset 32
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: %[[PC]] = OpTypeStruct %uint %uint %float %double %ulong %uint{{$}}
// CHECK: OpFunction
// CHECK: OpSConvert %uchar
// CHECK: OpSConvert %ushort
// CHECK: OpFConvert %half
// CHECK: OpConvertSToF %float %{{[0-9]+}}
// CHECK: OpConvertSToF %float %{{[0-9]+}}
// CHECK: OpFConvert %float
// CHECK: OpFConvert %float
// CHECK: OpConvertSToF %float
// CHECK: OpSelect %float
// CHECK: OpStore

func.func @mixed_scalars(%out: memref<256xf32>, %flag: i1, %b: i8, %h: i16,
                         %x: f16, %d: f64, %l: i64) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %bf = arith.sitofp %b : i8 to f32
    %hf = arith.sitofp %h : i16 to f32
    %xf = arith.extf %x : f16 to f32
    %df = arith.truncf %d : f64 to f32
    %lf = arith.sitofp %l : i64 to f32
    %s0 = arith.addf %bf, %hf : f32
    %s1 = arith.addf %s0, %xf : f32
    %s2 = arith.addf %s1, %df : f32
    %s3 = arith.addf %s2, %lf : f32
    %neg = arith.negf %s3 : f32
    %r = arith.select %flag, %s3, %neg : f32
    memref.store %r, %out[%i] : memref<256xf32>
    gpu.terminator
  }
  return
}
