// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// 2-D matrix transpose of a 300x200 f32 matrix with a 2-D grid of 16x8 blocks.

// CHECK: OpEntryPoint GLCompute %{{.*}} "transpose_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 16 8 1
// CHECK-DAG: %_arr_float_uint_60000 = OpTypeArray %float %uint_60000
// CHECK: OpLoad %v3uint %__builtin__WorkgroupId__
// CHECK: %[[WGY:[0-9]+]] = OpLoad %v3uint %__builtin__WorkgroupId__
// CHECK-NEXT: OpCompositeExtract %uint %[[WGY]] 1
// CHECK: OpLoad %v3uint %__builtin__LocalInvocationId__
// CHECK: %[[LIDY:[0-9]+]] = OpLoad %v3uint %__builtin__LocalInvocationId__
// CHECK-NEXT: OpCompositeExtract %uint %[[LIDY]] 1
// CHECK: OpLogicalAnd %bool
// CHECK: OpSelectionMerge
// Row-major linearization of in[row, col] and out[col, row]:
// CHECK: OpIMul %uint %{{[0-9]+}} %uint_200
// CHECK: OpLoad %float
// CHECK: OpIMul %uint %{{[0-9]+}} %uint_300
// CHECK: OpStore

func.func @transpose(%in: memref<300x200xf32>, %out: memref<200x300xf32>) {
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c38 = arith.constant 38 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c13, %gy = %c38, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c8, %sz = %c1) {
    %rows = arith.constant 300 : index
    %cols = arith.constant 200 : index
    %col0 = arith.muli %bx, %sx : index
    %col = arith.addi %col0, %tx : index
    %row0 = arith.muli %by, %sy : index
    %row = arith.addi %row0, %ty : index
    %in_rows = arith.cmpi ult, %row, %rows : index
    %in_cols = arith.cmpi ult, %col, %cols : index
    %ok = arith.andi %in_rows, %in_cols : i1
    scf.if %ok {
      %v = memref.load %in[%row, %col] : memref<300x200xf32>
      memref.store %v, %out[%col, %row] : memref<200x300xf32>
    }
    gpu.terminator
  }
  return
}
