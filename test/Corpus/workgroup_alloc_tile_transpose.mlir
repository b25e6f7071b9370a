// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Coalesced 256x256 transpose through an 8x8 memref.alloc tile in #gpu.address_space<workgroup>.

// CHECK: OpEntryPoint GLCompute %{{.*}} "tiled_transpose_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 8 8 1
// CHECK: %_arr_float_uint_64 = OpTypeArray %float %uint_64
// CHECK: OpVariable %{{.*}} Workgroup
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_StorageBuffer_float
// CHECK: OpAccessChain %_ptr_Workgroup_float
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
// CHECK: OpAccessChain %_ptr_Workgroup_float
// CHECK: OpAccessChain %_ptr_StorageBuffer_float

func.func @tiled_transpose(%in: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c32, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
    %tile = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
    %col0 = arith.muli %bx, %sx : index
    %row0 = arith.muli %by, %sy : index
    // Coalesced read of in[row0 + ty, col0 + tx] into tile[ty, tx].
    %col = arith.addi %col0, %tx : index
    %row = arith.addi %row0, %ty : index
    %v = memref.load %in[%row, %col] : memref<256x256xf32>
    memref.store %v, %tile[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    // Coalesced write of tile[tx, ty] to out[col0 + ty, row0 + tx].
    %orow = arith.addi %col0, %ty : index
    %ocol = arith.addi %row0, %tx : index
    %t = memref.load %tile[%tx, %ty] : memref<8x8xf32, #gpu.address_space<workgroup>>
    memref.store %t, %out[%orow, %ocol] : memref<256x256xf32>
    gpu.terminator
  }
  return
}
