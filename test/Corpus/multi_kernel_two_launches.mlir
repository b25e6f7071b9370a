// RUN: rm -rf %t && kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t
// RUN: spirv-val --target-env vulkan1.1 %t/softplus_then_scale_kernel.spv
// RUN: spirv-val --target-env vulkan1.1 %t/softplus_then_scale_kernel_0.spv
// RUN: spirv-val --target-env vulkan1.3 %t/softplus_then_scale_kernel.spv
// RUN: spirv-val --target-env vulkan1.3 %t/softplus_then_scale_kernel_0.spv
// RUN: spirv-dis %t/softplus_then_scale_kernel.spv | FileCheck %s --check-prefix=FIRST
// RUN: spirv-dis %t/softplus_then_scale_kernel_0.spv | FileCheck %s --check-prefix=SECOND
// Two gpu.launch ops in one host function (softplus, then scale by 0.25) outline to two GPU modules and two .spv files.

// FIRST: OpEntryPoint GLCompute %{{.*}} "softplus_then_scale_kernel"
// FIRST: OpExecutionMode %{{.*}} LocalSize 128 1 1
// FIRST: OpExtInst %float %{{[0-9]+}} Exp
// FIRST: OpFAdd %float %{{[0-9]+}} %float_1
// FIRST: OpExtInst %float %{{[0-9]+}} Log
// FIRST-NOT: OpFMul

// The second GPU module is uniquified as softplus_then_scale_kernel_0; its kernel keeps the name.
// SECOND: OpEntryPoint GLCompute %{{.*}} "softplus_then_scale_kernel"
// SECOND: OpExecutionMode %{{.*}} LocalSize 32 1 1
// SECOND-NOT: OpExtInst
// SECOND: OpFMul %float %{{[0-9]+}} %float_0_25

func.func @softplus_then_scale(%x: memref<2048xf32>, %y: memref<2048xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  // y = log(1 + exp(x))
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<2048xf32>
    %e = math.exp %v : f32
    %p = arith.addf %e, %one : f32
    %l = math.log %p : f32
    memref.store %l, %y[%i] : memref<2048xf32>
    gpu.terminator
  }
  // y *= 0.25, with a different block size.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %quarter = arith.constant 0.25 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %y[%i] : memref<2048xf32>
    %s = arith.mulf %v, %quarter : f32
    memref.store %s, %y[%i] : memref<2048xf32>
    gpu.terminator
  }
  return
}
