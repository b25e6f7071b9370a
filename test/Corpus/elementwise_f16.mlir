// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Half-precision AXPY-style blend on f16 buffers: y[i] = a[i] * 0.5 + y[i].

// CHECK-DAG: OpCapability Float16
// CHECK-DAG: OpCapability StorageBuffer16BitAccess
// CHECK: OpEntryPoint GLCompute %{{.*}} "half_blend_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 256 1 1
// CHECK: %half = OpTypeFloat 16
// CHECK: OpLoad %half
// CHECK: OpFMul %half
// CHECK: OpFAdd %half
// CHECK: OpStore

func.func @half_blend(%a: memref<8192xf16>, %y: memref<8192xf16>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %n = arith.constant 8192 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %half = arith.constant 0.5 : f16
      %x = memref.load %a[%i] : memref<8192xf16>
      %v = memref.load %y[%i] : memref<8192xf16>
      %m = arith.mulf %x, %half : f16
      %r = arith.addf %m, %v : f16
      memref.store %r, %y[%i] : memref<8192xf16>
    }
    gpu.terminator
  }
  return
}
