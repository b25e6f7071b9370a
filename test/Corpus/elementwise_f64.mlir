// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Double-precision scaled difference: d[i] = (a[i] - b[i]) / 3.0.

// CHECK: OpCapability Float64
// CHECK: OpEntryPoint GLCompute %{{.*}} "scaled_diff_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: %double = OpTypeFloat 64
// CHECK: OpLoad %double
// CHECK: OpFSub %double
// CHECK: OpFDiv %double
// CHECK: OpStore

func.func @scaled_diff(%a: memref<512xf64>, %b: memref<512xf64>,
                       %d: memref<512xf64>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %three = arith.constant 3.0 : f64
      %x = memref.load %a[%i] : memref<512xf64>
      %y = memref.load %b[%i] : memref<512xf64>
      %diff = arith.subf %x, %y : f64
      %q = arith.divf %diff, %three : f64
      memref.store %q, %d[%i] : memref<512xf64>
    }
    gpu.terminator
  }
  return
}
