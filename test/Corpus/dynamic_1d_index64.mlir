// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe --use-64bit-index --buffer-device-address=never -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// In-place ReLU on memref<?xf32> with --use-64bit-index: index math and memref metadata are i64
// (the kernel alone: no address variant).

// CHECK: OpCapability Int64
// CHECK: OpEntryPoint GLCompute %{{.*}} "relu_dyn_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 0 Offset 0
// CHECK-NEXT: OpMemberDecorate %[[PC]] 1 Offset 8
// CHECK-NEXT: OpMemberDecorate %[[PC]] 2 Offset 16
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK: %[[PC]] = OpTypeStruct %ulong %ulong %ulong{{$}}
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_PushConstant_ulong
// CHECK: OpULessThan %bool %{{[0-9]+}} %{{[0-9]+}}
// CHECK: OpSelectionMerge
// Unit stride and the identity layout's offset 0: the element is i itself,
// no multiplication and no addition.
// CHECK-NOT: OpIMul %ulong
// CHECK-NOT: OpIAdd %ulong
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %{{.*}} %ulong_0 %[[I:[0-9]+]]
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// CHECK: OpStore

func.func @relu_dyn(%buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  %blocks = arith.ceildivui %n, %c128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %len = memref.dim %buf, %k0 : memref<?xf32>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %len : index
    scf.if %ok {
      %v = memref.load %buf[%i] : memref<?xf32>
      %r = arith.maxnumf %v, %zero : f32
      memref.store %r, %buf[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
