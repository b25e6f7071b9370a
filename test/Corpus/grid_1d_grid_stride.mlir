// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// 1-D grid-stride loop: 8 blocks of 128 threads double a 100000-element buffer, stepping by grid_dim * block_dim.

// CHECK: OpEntryPoint GLCompute %{{.*}} "scale_all_kernel" {{.*}}%__builtin__NumWorkgroups__
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: OpDecorate %__builtin__NumWorkgroups__ BuiltIn NumWorkgroups
// CHECK: OpDecorate %__builtin__WorkgroupId__ BuiltIn WorkgroupId
// CHECK: %[[NWG:[0-9]+]] = OpLoad %v3uint %__builtin__NumWorkgroups__
// CHECK: %[[NX:[0-9]+]] = OpCompositeExtract %uint %[[NWG]] 0
// CHECK: %[[STRIDE:[0-9]+]] = OpIMul %uint %[[NX]] %uint_128
// CHECK: %[[IV:[0-9]+]] = OpPhi %uint
// CHECK: OpSLessThan %bool %[[IV]] %uint_100000
// CHECK: OpLoopMerge
// CHECK: OpFMul %float
// CHECK: OpIAdd %uint %[[IV]] %[[STRIDE]]

func.func @scale_all(%buf: memref<100000xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %n = arith.constant 100000 : index
    %two = arith.constant 2.0 : f32
    %nblocks = gpu.grid_dim x
    %nthreads = gpu.block_dim x
    %stride = arith.muli %nblocks, %nthreads : index
    %base = arith.muli %bx, %nthreads : index
    %start = arith.addi %base, %tx : index
    scf.for %i = %start to %n step %stride {
      %v = memref.load %buf[%i] : memref<100000xf32>
      %s = arith.mulf %v, %two : f32
      memref.store %s, %buf[%i] : memref<100000xf32>
    }
    gpu.terminator
  }
  return
}
