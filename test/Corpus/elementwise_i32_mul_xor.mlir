// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Integer hash mix: out[i] = (a[i] * b[i]) ^ (a[i] >> 3), on i32 buffers.

// CHECK: OpEntryPoint GLCompute %{{.*}} "hash_mix_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: %[[PROD:[0-9]+]] = OpIMul %uint %{{[0-9]+}} %{{[0-9]+}}{{$}}
// CHECK: %[[SH:[0-9]+]] = OpShiftRightArithmetic %uint %{{.*}} %uint_3
// CHECK: OpBitwiseXor %uint %[[PROD]] %[[SH]]

func.func @hash_mix(%a: memref<4096xi32>, %b: memref<4096xi32>,
                    %out: memref<4096xi32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %n = arith.constant 4096 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %x = memref.load %a[%i] : memref<4096xi32>
      %y = memref.load %b[%i] : memref<4096xi32>
      %c3 = arith.constant 3 : i32
      %prod = arith.muli %x, %y : i32
      %sh = arith.shrsi %x, %c3 : i32
      %mix = arith.xori %prod, %sh : i32
      memref.store %mix, %out[%i] : memref<4096xi32>
    }
    gpu.terminator
  }
  return
}
