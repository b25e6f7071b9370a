// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Clamps a memref<?x?x?xf32> volume to [0, 1] in place, one thread per voxel over a 3-D grid of 8x4x4 blocks.

// CHECK: OpEntryPoint GLCompute %{{.*}} "clamp_volume_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 8 4 4
// One rank-3 memref: offset + 3 sizes + 3 strides = 7 push-constant fields.
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 6 Offset 24
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: %[[PC]] = OpTypeStruct %uint %uint %uint %uint %uint %uint %uint{{$}}
// CHECK: %[[PCVAR:.*]] = OpVariable %{{.*}} PushConstant
// CHECK: OpFunction
// The kernel reads the 3 sizes and the 2 outer strides; the offset (0 in
// an identity layout) and the innermost stride (1) are constants.
// CHECK-COUNT-5: OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]]
// CHECK-NOT: OpAccessChain %_ptr_PushConstant_uint
// CHECK: OpLogicalAnd %bool
// CHECK: OpSelectionMerge
// CHECK: OpAccessChain %_ptr_StorageBuffer_float
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// CHECK: OpExtInst %float %{{[0-9]+}} FMin
// CHECK: OpStore

func.func @clamp_volume(%vol: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %d0 = memref.dim %vol, %c0 : memref<?x?x?xf32>
  %d1 = memref.dim %vol, %c1 : memref<?x?x?xf32>
  %d2 = memref.dim %vol, %c2 : memref<?x?x?xf32>
  %gz = arith.ceildivui %d0, %c4 : index
  %gy = arith.ceildivui %d1, %c4 : index
  %gx = arith.ceildivui %d2, %c8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%nbx = %gx, %nby = %gy, %nbz = %gz)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c4) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %lo = arith.constant 0.0 : f32
    %hi = arith.constant 1.0 : f32
    %depth = memref.dim %vol, %k0 : memref<?x?x?xf32>
    %height = memref.dim %vol, %k1 : memref<?x?x?xf32>
    %width = memref.dim %vol, %k2 : memref<?x?x?xf32>
    %x0 = arith.muli %bx, %sx : index
    %x = arith.addi %x0, %tx : index
    %y0 = arith.muli %by, %sy : index
    %y = arith.addi %y0, %ty : index
    %z0 = arith.muli %bz, %sz : index
    %z = arith.addi %z0, %tz : index
    %okx = arith.cmpi ult, %x, %width : index
    %oky = arith.cmpi ult, %y, %height : index
    %okz = arith.cmpi ult, %z, %depth : index
    %okxy = arith.andi %okx, %oky : i1
    %ok = arith.andi %okxy, %okz : i1
    scf.if %ok {
      %v = memref.load %vol[%z, %y, %x] : memref<?x?x?xf32>
      %m = arith.maxnumf %v, %lo : f32
      %c = arith.minnumf %m, %hi : f32
      memref.store %c, %vol[%z, %y, %x] : memref<?x?x?xf32>
    }
    gpu.terminator
  }
  return
}
