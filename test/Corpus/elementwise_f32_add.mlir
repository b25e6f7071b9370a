// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Element-wise f32 vector addition c = a + b over a 1-D grid of 64-thread blocks.

// CHECK: OpEntryPoint GLCompute %{{.*}} "vadd_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpDecorate %{{.*}} Binding 0
// CHECK: OpDecorate %{{.*}} Binding 1
// CHECK: OpDecorate %{{.*}} Binding 2
// CHECK: OpULessThan
// CHECK: OpSelectionMerge
// CHECK: OpFAdd %float
// CHECK: OpStore

func.func @vadd(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 1024 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = memref.load %b[%i] : memref<1024xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i] : memref<1024xf32>
    }
    gpu.terminator
  }
  return
}
