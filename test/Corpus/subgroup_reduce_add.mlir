// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Per-subgroup dot-product partial sums with gpu.subgroup_reduce add; lane 0 of each subgroup stores its sum.

// CHECK-DAG: OpCapability GroupNonUniformArithmetic
// CHECK: OpEntryPoint GLCompute %{{.*}} "subgroup_dot_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpDecorate %{{.*}} BuiltIn SubgroupLocalInvocationId
// CHECK: OpFMul %float
// CHECK: OpGroupNonUniformFAdd %float %uint_3 Reduce
// CHECK: OpLoad %uint %__builtin__SubgroupLocalInvocationId__
// CHECK: OpIEqual %bool %{{[0-9]+}} %uint_0
// CHECK: OpSelectionMerge

func.func @subgroup_dot(%a: memref<4096xf32>, %b: memref<4096xf32>,
                        %partial: memref<512xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %c0_i32 = arith.constant 0 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %x = memref.load %a[%i] : memref<4096xf32>
    %y = memref.load %b[%i] : memref<4096xf32>
    %prod = arith.mulf %x, %y : f32
    %sum = gpu.subgroup_reduce add %prod : (f32) -> f32
    %lane = gpu.lane_id
    %lane_i32 = arith.index_cast %lane : index to i32
    %first = arith.cmpi eq, %lane_i32, %c0_i32 : i32
    scf.if %first {
      %sg_size = gpu.subgroup_size : index
      %sg = arith.divui %i, %sg_size : index
      memref.store %sum, %partial[%sg] : memref<512xf32>
    }
    gpu.terminator
  }
  return
}
