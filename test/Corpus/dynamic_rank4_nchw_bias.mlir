// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Per-channel bias add on a memref<?x?x?x?xf32> NCHW tensor; grid z enumerates (n, c) pairs, x/y tile W and H.

// CHECK: OpEntryPoint GLCompute %{{.*}} "nchw_bias_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 16 4 1
// Rank-4 activations (9 fields) plus the rank-1 bias (3 fields):
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 11 Offset 44
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: %[[PC]] = OpTypeStruct %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint{{$}}
// CHECK: OpFunction
// CHECK: OpUDiv %uint
// CHECK: OpUMod %uint
// CHECK: OpSelectionMerge
// Three index * stride terms linearize the rank-4 access; the innermost
// stride of the identity layout is 1, a constant, so W is added as is:
// CHECK-COUNT-3: OpIMul %uint
// CHECK-NEXT: OpIAdd %uint
// CHECK-NEXT: OpIAdd %uint
// CHECK-NEXT: OpAccessChain
// CHECK-NEXT: OpLoad %float
// CHECK: OpFAdd %float
// CHECK: OpStore

func.func @nchw_bias(%act: memref<?x?x?x?xf32>, %bias: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %n = memref.dim %act, %c0 : memref<?x?x?x?xf32>
  %c = memref.dim %act, %c1 : memref<?x?x?x?xf32>
  %h = memref.dim %act, %c2 : memref<?x?x?x?xf32>
  %w = memref.dim %act, %c3 : memref<?x?x?x?xf32>
  %gx = arith.ceildivui %w, %c16 : index
  %gy = arith.ceildivui %h, %c4 : index
  %gz = arith.muli %n, %c : index
  gpu.launch blocks(%bx, %by, %bz) in (%nbx = %gx, %nby = %gy, %nbz = %gz)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c4, %sz = %c1) {
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %channels = memref.dim %act, %k1 : memref<?x?x?x?xf32>
    %height = memref.dim %act, %k2 : memref<?x?x?x?xf32>
    %width = memref.dim %act, %k3 : memref<?x?x?x?xf32>
    %img = arith.divui %bz, %channels : index
    %ch = arith.remui %bz, %channels : index
    %x0 = arith.muli %bx, %sx : index
    %x = arith.addi %x0, %tx : index
    %y0 = arith.muli %by, %sy : index
    %y = arith.addi %y0, %ty : index
    %okx = arith.cmpi ult, %x, %width : index
    %oky = arith.cmpi ult, %y, %height : index
    %ok = arith.andi %okx, %oky : i1
    scf.if %ok {
      %v = memref.load %act[%img, %ch, %y, %x] : memref<?x?x?x?xf32>
      %b = memref.load %bias[%ch] : memref<?xf32>
      %s = arith.addf %v, %b : f32
      memref.store %s, %act[%img, %ch, %y, %x] : memref<?x?x?x?xf32>
    }
    gpu.terminator
  }
  return
}
