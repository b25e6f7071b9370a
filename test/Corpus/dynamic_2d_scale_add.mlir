// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// 2-D c = a + 2 * b on memref<?x?xf32> operands, bounds taken from memref.dim inside the kernel.

// CHECK: OpEntryPoint GLCompute %{{.*}} "matadd_dyn_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 16 8 1
// Offset, sizes and strides of all three memrefs arrive in one 15 x i32 push-constant block:
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 0 Offset 0
// CHECK: OpMemberDecorate %[[PC]] 14 Offset 56
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: OpDecorate %_runtimearr_float ArrayStride 4
// CHECK: %[[PC]] = OpTypeStruct %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint{{$}}
// CHECK: %[[PCPTR:.*]] = OpTypePointer PushConstant %[[PC]]
// CHECK: %[[PCVAR:.*]] = OpVariable %[[PCPTR]] PushConstant
// CHECK: %_runtimearr_float = OpTypeRuntimeArray %float
// CHECK: OpFunction
// memref.dim %c, 0 and memref.dim %c, 1 are push-constant fields 1 and 2:
// CHECK: %[[P1:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_1
// CHECK-NEXT: %[[ROWS:[0-9]+]] = OpLoad %uint %[[P1]]
// CHECK-NEXT: %[[P2:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_2
// CHECK-NEXT: %[[COLS:[0-9]+]] = OpLoad %uint %[[P2]]
// CHECK: OpULessThan %bool %{{[0-9]+}} %[[ROWS]]
// CHECK: OpULessThan %bool %{{[0-9]+}} %[[COLS]]
// CHECK: OpLogicalAnd %bool
// CHECK: OpSelectionMerge
// CHECK: OpFMul %float %{{[0-9]+}} %float_2
// CHECK: OpFAdd %float

func.func @matadd_dyn(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                      %c: memref<?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c0 = arith.constant 0 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  %gx = arith.ceildivui %cols, %c16 : index
  %gy = arith.ceildivui %rows, %c8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%nbx = %gx, %nby = %gy, %nbz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c8, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f32
    %m = memref.dim %c, %k0 : memref<?x?xf32>
    %n = memref.dim %c, %k1 : memref<?x?xf32>
    %col0 = arith.muli %bx, %sx : index
    %col = arith.addi %col0, %tx : index
    %row0 = arith.muli %by, %sy : index
    %row = arith.addi %row0, %ty : index
    %rok = arith.cmpi ult, %row, %m : index
    %cok = arith.cmpi ult, %col, %n : index
    %ok = arith.andi %rok, %cok : i1
    scf.if %ok {
      %x = memref.load %a[%row, %col] : memref<?x?xf32>
      %y = memref.load %b[%row, %col] : memref<?x?xf32>
      %y2 = arith.mulf %y, %two : f32
      %s = arith.addf %x, %y2 : f32
      memref.store %s, %c[%row, %col] : memref<?x?xf32>
    }
    gpu.terminator
  }
  return
}
