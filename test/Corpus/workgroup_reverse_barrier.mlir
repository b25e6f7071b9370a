// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Reverses 64-element tiles through a gpu.launch workgroup attribution, with a gpu.barrier between writes and reads.

// CHECK: OpEntryPoint GLCompute %{{.*}} "reverse_tiles_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: %[[SPTR:.*]] = OpTypePointer Workgroup %{{.*}}
// CHECK: %{{.*}} = OpVariable %[[SPTR]] Workgroup
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float
// CHECK: OpStore
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
// CHECK: OpISub %uint %uint_63
// CHECK: OpAccessChain %_ptr_Workgroup_float
// CHECK: OpLoad %float
// CHECK: OpStore

func.func @reverse_tiles(%in: memref<4096xf32>, %out: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) {
    %c63 = arith.constant 63 : index
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<4096xf32>
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %mirror = arith.subi %c63, %tx : index
    %r = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%i] : memref<4096xf32>
    gpu.terminator
  }
  return
}
