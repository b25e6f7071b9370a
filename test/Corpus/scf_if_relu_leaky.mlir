// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Leaky ReLU y = x > 0 ? x : 0.01 * x with a value-yielding scf.if nested in the bounds-check scf.if.

// CHECK: OpEntryPoint GLCompute %{{.*}} "leaky_relu_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// The bounds check:
// CHECK: OpULessThan %bool %{{[0-9]+}} %uint_2000
// CHECK: OpSelectionMerge
// The value-yielding scf.if becomes a selection that stores to a Function variable:
// CHECK: %[[COND:[0-9]+]] = OpFOrdGreaterThan %bool
// CHECK: OpSelectionMerge %{{[0-9]+}} None
// CHECK-NEXT: OpBranchConditional %[[COND]]
// CHECK: OpFMul %float %{{[0-9]+}} %float_0_00999999978
// CHECK: OpStore

func.func @leaky_relu(%x: memref<2000xf32>, %y: memref<2000xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %n = arith.constant 2000 : index
    %zero = arith.constant 0.0 : f32
    %slope = arith.constant 0.01 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %v = memref.load %x[%i] : memref<2000xf32>
      %pos = arith.cmpf ogt, %v, %zero : f32
      %r = scf.if %pos -> (f32) {
        scf.yield %v : f32
      } else {
        %scaled = arith.mulf %v, %slope : f32
        scf.yield %scaled : f32
      }
      memref.store %r, %y[%i] : memref<2000xf32>
    }
    gpu.terminator
  }
  return
}
