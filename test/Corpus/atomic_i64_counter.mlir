// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Per-bucket 64-bit byte counters: memref.atomic_rmw addi on an i64 buffer, which lavapipe's Int64Atomics allows.

// CHECK-DAG: OpCapability Int64
// CHECK-DAG: OpCapability Int64Atomics
// CHECK: OpEntryPoint GLCompute %{{.*}} "count_bytes_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: OpFunction
// CHECK: OpUConvert %ulong
// CHECK: OpAtomicIAdd %ulong

func.func @count_bytes(%sizes: memref<8192xi32>, %bucket: memref<8192xi32>,
                       %totals: memref<16xi64>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %mask = arith.constant 15 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %s = memref.load %sizes[%i] : memref<8192xi32>
    %b = memref.load %bucket[%i] : memref<8192xi32>
    %bm = arith.andi %b, %mask : i32
    %bi = arith.index_castui %bm : i32 to index
    %s64 = arith.extui %s : i32 to i64
    %old = memref.atomic_rmw addi %s64, %totals[%bi] : (i64, memref<16xi64>) -> i64
    gpu.terminator
  }
  return
}
