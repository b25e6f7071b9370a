// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// 3-D grid of 8x4x4 blocks: 7-point Laplacian stencil on the interior of a 32x32x32 f32 volume.

// CHECK: OpEntryPoint GLCompute %{{.*}} "laplacian_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 8 4 4
// CHECK: %_arr_float_uint_32768 = OpTypeArray %float %uint_32768
// CHECK-COUNT-3: OpLoad %v3uint %__builtin__WorkgroupId__
// CHECK-NEXT: OpCompositeExtract %uint %{{[0-9]+}} 2
// CHECK-COUNT-3: OpLoad %v3uint %__builtin__LocalInvocationId__
// CHECK-NEXT: OpCompositeExtract %uint %{{[0-9]+}} 2
// CHECK: OpLogicalAnd %bool
// CHECK: OpSelectionMerge
// CHECK: OpIMul %uint %{{[0-9]+}} %uint_1024
// CHECK-COUNT-7: OpLoad %float
// CHECK: OpFMul %float %{{[0-9]+}} %float_6
// CHECK: OpFSub %float
// CHECK: OpStore

func.func @laplacian(%u: memref<32x32x32xf32>, %out: memref<32x32x32xf32>) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c8, %gz = %c8)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c4) {
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %six = arith.constant 6.0 : f32
    %x0 = arith.muli %bx, %sx : index
    %x = arith.addi %x0, %tx : index
    %y0 = arith.muli %by, %sy : index
    %y = arith.addi %y0, %ty : index
    %z0 = arith.muli %bz, %sz : index
    %z = arith.addi %z0, %tz : index
    %xlo = arith.cmpi uge, %x, %c1 : index
    %xhi = arith.cmpi ult, %x, %c31 : index
    %ylo = arith.cmpi uge, %y, %c1 : index
    %yhi = arith.cmpi ult, %y, %c31 : index
    %zlo = arith.cmpi uge, %z, %c1 : index
    %zhi = arith.cmpi ult, %z, %c31 : index
    %okx = arith.andi %xlo, %xhi : i1
    %oky = arith.andi %ylo, %yhi : i1
    %okz = arith.andi %zlo, %zhi : i1
    %okxy = arith.andi %okx, %oky : i1
    %ok = arith.andi %okxy, %okz : i1
    scf.if %ok {
      %xm = arith.subi %x, %c1 : index
      %xp = arith.addi %x, %c1 : index
      %ym = arith.subi %y, %c1 : index
      %yp = arith.addi %y, %c1 : index
      %zm = arith.subi %z, %c1 : index
      %zp = arith.addi %z, %c1 : index
      %center = memref.load %u[%z, %y, %x] : memref<32x32x32xf32>
      %n0 = memref.load %u[%z, %y, %xm] : memref<32x32x32xf32>
      %n1 = memref.load %u[%z, %y, %xp] : memref<32x32x32xf32>
      %n2 = memref.load %u[%z, %ym, %x] : memref<32x32x32xf32>
      %n3 = memref.load %u[%z, %yp, %x] : memref<32x32x32xf32>
      %n4 = memref.load %u[%zm, %y, %x] : memref<32x32x32xf32>
      %n5 = memref.load %u[%zp, %y, %x] : memref<32x32x32xf32>
      %s0 = arith.addf %n0, %n1 : f32
      %s1 = arith.addf %n2, %n3 : f32
      %s2 = arith.addf %n4, %n5 : f32
      %s01 = arith.addf %s0, %s1 : f32
      %sum = arith.addf %s01, %s2 : f32
      %c6 = arith.mulf %center, %six : f32
      %lap = arith.subf %sum, %c6 : f32
      memref.store %lap, %out[%z, %y, %x] : memref<32x32x32xf32>
    }
    gpu.terminator
  }
  return
}
