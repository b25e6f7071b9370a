// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// 256-bin byte-value histogram: each thread bumps bins[data[i] & 255] with memref.atomic_rmw addi.

// CHECK: OpEntryPoint GLCompute %{{.*}} "histogram_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: OpULessThan %bool %{{[0-9]+}} %uint_65536
// CHECK: OpSelectionMerge
// CHECK: OpBitwiseAnd %uint %{{[0-9]+}} %uint_255
// CHECK: %[[BIN:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_uint %{{.*}} %uint_0 %{{[0-9]+}}
// CHECK-NEXT: OpAtomicIAdd %uint %[[BIN]] %uint_1 %uint_8 %uint_1

func.func @histogram(%data: memref<65536xi32>, %bins: memref<256xi32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c512, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %n = arith.constant 65536 : index
    %mask = arith.constant 255 : i32
    %one = arith.constant 1 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %v = memref.load %data[%i] : memref<65536xi32>
      %b = arith.andi %v, %mask : i32
      %bin = arith.index_cast %b : i32 to index
      %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<256xi32>) -> i32
    }
    gpu.terminator
  }
  return
}
