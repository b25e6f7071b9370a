// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Histogram with a runtime bin count: memref.atomic_rmw addi / maxs on flattened memref<?xi32> buffers.

// CHECK: OpEntryPoint GLCompute %{{.*}} "hist_dyn_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: %[[PC:[_a-z0-9]+]] = OpTypeStruct %uint %uint %uint %uint %uint %uint %uint %uint %uint{{$}}
// CHECK: %_runtimearr_uint = OpTypeRuntimeArray %uint
// CHECK: OpFunction
// CHECK: OpSelectionMerge
// CHECK: OpUMod %uint
// CHECK: OpAtomicIAdd %uint %{{[0-9]+}} %uint_1 %uint_8 %uint_1
// CHECK: OpAtomicSMax %uint

func.func @hist_dyn(%data: memref<?xi32>, %bins: memref<?xi32>, %peak: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %data, %c0 : memref<?xi32>
  %blocks = arith.ceildivui %n, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %len = memref.dim %data, %k0 : memref<?xi32>
    %nbins = memref.dim %bins, %k0 : memref<?xi32>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %len : index
    scf.if %ok {
      %v = memref.load %data[%i] : memref<?xi32>
      %vi = arith.index_castui %v : i32 to index
      %b = arith.remui %vi, %nbins : index
      %cnt = memref.atomic_rmw addi %one, %bins[%b] : (i32, memref<?xi32>) -> i32
      %new = arith.addi %cnt, %one : i32
      %old = memref.atomic_rmw maxs %new, %peak[%k0] : (i32, memref<?xi32>) -> i32
    }
    gpu.terminator
  }
  return
}
