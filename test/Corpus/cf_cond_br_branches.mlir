// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Piecewise-linear ramp written with cf.cond_br / cf.br blocks inside the kernel body instead of scf.if.

// CHECK: OpEntryPoint GLCompute %{{.*}} "ramp_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpFunction
// CHECK: OpULessThan %bool
// CHECK: OpSelectionMerge
// CHECK: OpBranchConditional
// CHECK: OpFOrdLessThan %bool
// CHECK: OpSelectionMerge
// CHECK: OpBranchConditional
// CHECK: OpFMul %float
// CHECK: OpStore

func.func @ramp(%x: memref<1000xf32>, %y: memref<1000xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %n = arith.constant 1000 : index
    %zero = arith.constant 0.0 : f32
    %slope = arith.constant 0.5 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    cf.cond_br %ok, ^load, ^done
  ^load:
    %v = memref.load %x[%i] : memref<1000xf32>
    %neg = arith.cmpf olt, %v, %zero : f32
    cf.cond_br %neg, ^clamp, ^scale
  ^clamp:
    cf.br ^store(%zero : f32)
  ^scale:
    %s = arith.mulf %v, %slope : f32
    cf.br ^store(%s : f32)
  ^store(%r: f32):
    memref.store %r, %y[%i] : memref<1000xf32>
    cf.br ^done
  ^done:
    gpu.terminator
  }
  return
}
