// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// A loop written with cf.br / cf.cond_br (a back edge and a loop-carried
// value) is lifted to structured control flow: OpLoopMerge, not a bare branch.

// CHECK: OpEntryPoint GLCompute %{{.*}} "prefix_kernel"
// CHECK: OpFunction
// CHECK: OpLoopMerge
// CHECK: OpBranchConditional
// CHECK: OpFAdd %float

func.func @prefix(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : index
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    cf.br ^head(%c0, %zero : index, f32)
  ^head(%j: index, %acc: f32):
    %more = arith.cmpi ule, %j, %i : index
    cf.cond_br %more, ^body, ^exit
  ^body:
    %v = memref.load %x[%j] : memref<1024xf32>
    %next = arith.addf %acc, %v : f32
    %jn = arith.addi %j, %one : index
    cf.br ^head(%jn, %next : index, f32)
  ^exit:
    memref.store %acc, %y[%i] : memref<1024xf32>
    gpu.terminator
  }
  return
}
