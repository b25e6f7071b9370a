// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Butterfly max-reduction across 8 lanes with three gpu.shuffle xor steps (offsets 4, 2, 1).

// CHECK-DAG: OpCapability GroupNonUniformShuffle
// CHECK: OpEntryPoint GLCompute %{{.*}} "butterfly_max_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpGroupNonUniformShuffleXor %float %uint_3 %{{[0-9]+}} %uint_4
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// CHECK: OpGroupNonUniformShuffleXor %float %uint_3 %{{[0-9]+}} %uint_2
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// CHECK: OpGroupNonUniformShuffleXor %float %uint_3 %{{[0-9]+}} %uint_1
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// CHECK: OpStore

func.func @butterfly_max(%in: memref<2048xf32>, %out: memref<2048xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %width = arith.constant 8 : i32
    %o4 = arith.constant 4 : i32
    %o2 = arith.constant 2 : i32
    %o1 = arith.constant 1 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v0 = memref.load %in[%i] : memref<2048xf32>
    %s4, %ok4 = gpu.shuffle xor %v0, %o4, %width : f32
    %v1 = arith.maxnumf %v0, %s4 : f32
    %s2, %ok2 = gpu.shuffle xor %v1, %o2, %width : f32
    %v2 = arith.maxnumf %v1, %s2 : f32
    %s1, %ok1 = gpu.shuffle xor %v2, %o1, %width : f32
    %v3 = arith.maxnumf %v2, %s1 : f32
    memref.store %v3, %out[%i] : memref<2048xf32>
    gpu.terminator
  }
  return
}
