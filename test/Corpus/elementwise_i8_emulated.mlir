// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// i8 add on vulkan-1.1 (no Int8): byte buffers become i32 words, read with shifts/masks and written with atomic and/or.

// CHECK-NOT: OpCapability Int8
// CHECK: OpEntryPoint GLCompute %{{.*}} "bytes_add_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK-NOT: OpTypeInt 8
// CHECK: %_arr_uint_uint_250 = OpTypeArray %uint %uint_250
// CHECK: OpSDiv %uint %{{.*}} %uint_4
// CHECK: OpShiftRightArithmetic %uint
// CHECK: OpBitwiseAnd %uint %{{.*}} %uint_255
// CHECK: OpIAdd %uint
// CHECK: OpAtomicAnd %uint
// CHECK: OpAtomicOr %uint

func.func @bytes_add(%a: memref<1000xi8>, %b: memref<1000xi8>,
                     %c: memref<1000xi8>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 1000 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %x = memref.load %a[%i] : memref<1000xi8>
      %y = memref.load %b[%i] : memref<1000xi8>
      %s = arith.addi %x, %y : i8
      memref.store %s, %c[%i] : memref<1000xi8>
    }
    gpu.terminator
  }
  return
}
