// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Log-normal transform y = exp(log(x) * 0.5) / sqrt(x + 1) exercising math.sqrt, math.exp and math.log.

// CHECK: %[[GLSL:[0-9]+]] = OpExtInstImport "GLSL.std.450"
// CHECK: OpEntryPoint GLCompute %{{.*}} "lognormal_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpExtInst %float %[[GLSL]] Log
// CHECK: OpFMul %float
// CHECK: OpExtInst %float %[[GLSL]] Exp
// CHECK: OpFAdd %float
// CHECK: OpExtInst %float %[[GLSL]] Sqrt
// CHECK: OpFDiv %float

func.func @lognormal(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %n = arith.constant 1024 : index
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %v = memref.load %x[%i] : memref<1024xf32>
      %l = math.log %v : f32
      %h = arith.mulf %l, %half : f32
      %e = math.exp %h : f32
      %p = arith.addf %v, %one : f32
      %s = math.sqrt %p : f32
      %r = arith.divf %e, %s : f32
      memref.store %r, %y[%i] : memref<1024xf32>
    }
    gpu.terminator
  }
  return
}
