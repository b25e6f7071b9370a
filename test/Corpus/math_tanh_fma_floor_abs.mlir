// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Quantized activation y = floor(|tanh(fma(w, x, b))| * 255) using math.tanh, math.fma, math.absf and math.floor.

// CHECK: %[[GLSL:[0-9]+]] = OpExtInstImport "GLSL.std.450"
// CHECK: OpEntryPoint GLCompute %{{.*}} "quant_act_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 32 1 1
// CHECK: OpExtInst %float %[[GLSL]] Fma
// CHECK: OpExtInst %float %[[GLSL]] Tanh
// CHECK: OpExtInst %float %[[GLSL]] FAbs
// CHECK: OpFMul %float %{{[0-9]+}} %float_255
// CHECK: OpExtInst %float %[[GLSL]] Floor
// CHECK: OpStore

func.func @quant_act(%w: memref<512xf32>, %x: memref<512xf32>,
                     %b: memref<512xf32>, %y: memref<512xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %n = arith.constant 512 : index
    %scale = arith.constant 255.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %wv = memref.load %w[%i] : memref<512xf32>
      %xv = memref.load %x[%i] : memref<512xf32>
      %bv = memref.load %b[%i] : memref<512xf32>
      %pre = math.fma %wv, %xv, %bv : f32
      %act = math.tanh %pre : f32
      %mag = math.absf %act : f32
      %scaled = arith.mulf %mag, %scale : f32
      %q = math.floor %scaled : f32
      memref.store %q, %y[%i] : memref<512xf32>
    }
    gpu.terminator
  }
  return
}
