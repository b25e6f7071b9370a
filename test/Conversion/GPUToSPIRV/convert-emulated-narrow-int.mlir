// RUN: kiln-opt %s --kiln-attach-spirv-target-env=profile=vulkan-1.1 --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s
// RUN: kiln-opt %s --kiln-attach-spirv-target-env=profile=lavapipe --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s --check-prefix=NATIVE

// Without Int8/Int16, upstream holds i8/i16 in 32-bit registers whose upper
// bits are unspecified (a push-constant i8 arrives masked with 255). Signed
// and unsigned reads of such values are done at 32 bits on operands
// sign- or zero-extended from the narrow type.

// CHECK-LABEL: spirv.func @narrow
// The i8 argument: masked to its low 8 bits.
// CHECK: %[[A:.*]] = spirv.BitwiseAnd %{{.*}}, %{{.*}} : i32
// sitofp: sign-extended first.
// CHECK: %[[SHL:.*]] = spirv.ShiftLeftLogical %[[A]], %[[C24:.*]] : i32, i32
// CHECK: %[[SEXT:.*]] = spirv.ShiftRightArithmetic %[[SHL]], %[[C24]] : i32, i32
// CHECK: spirv.ConvertSToF %[[SEXT]] : i32 to f32
// cmpi slt: on the same sign-extended operand (one extension after CSE).
// CHECK: spirv.SLessThan %[[SEXT]]
// divui after an add that may carry into the upper bits: zero-extended.
// CHECK: %[[SUM:.*]] = spirv.IAdd %[[A]], %[[A]] : i32
// CHECK: %[[ZEXT:.*]] = spirv.BitwiseAnd %[[SUM]]
// CHECK: spirv.UDiv %[[ZEXT]]

// NATIVE-LABEL: spirv.func @narrow
// NATIVE: spirv.ConvertSToF %{{.*}} : i8 to f32
// NATIVE: spirv.SLessThan %{{.*}} : i8
// NATIVE: spirv.UDiv %{{.*}} : i8

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @narrow(%out: memref<4xf32>, %flags: memref<4xi32>, %a: i8) kernel
        attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i8
      %three = arith.constant 3 : i8
      %f = arith.sitofp %a : i8 to f32
      memref.store %f, %out[%c0] : memref<4xf32>
      %neg = arith.cmpi slt, %a, %zero : i8
      %negi = arith.extui %neg : i1 to i32
      memref.store %negi, %flags[%c0] : memref<4xi32>
      %sum = arith.addi %a, %a : i8
      %q = arith.divui %sum, %three : i8
      %qi = arith.extui %q : i8 to i32
      memref.store %qi, %flags[%c1] : memref<4xi32>
      gpu.return
    }
  }
}
