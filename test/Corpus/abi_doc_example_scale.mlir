// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// docs/abi.md's example b[i] = a[i % 8] * k for i < n: a binding 0, b binding 1, a 20-byte push-constant block.

// CHECK: OpEntryPoint GLCompute %{{.*}} "scale"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// %b's {offset @0, size @4, stride @8}, %k @12, %n @16:
// CHECK: OpMemberDecorate %[[PC:[_a-z0-9]+]] 0 Offset 0
// CHECK-NEXT: OpMemberDecorate %[[PC]] 1 Offset 4
// CHECK-NEXT: OpMemberDecorate %[[PC]] 2 Offset 8
// CHECK-NEXT: OpMemberDecorate %[[PC]] 3 Offset 12
// CHECK-NEXT: OpMemberDecorate %[[PC]] 4 Offset 16
// CHECK-NEXT: OpDecorate %[[PC]] Block
// CHECK-DAG: OpDecorate %[[A:[a-z_0-9]+]] Binding 0
// CHECK-DAG: OpDecorate %[[B:[a-z_0-9]+]] Binding 1
// CHECK-DAG: %[[PC]] = OpTypeStruct %uint %uint %uint %float %uint{{$}}
// CHECK-DAG: %[[A]] = OpVariable %{{.*}} StorageBuffer
// CHECK-DAG: %[[B]] = OpVariable %{{.*}} StorageBuffer
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %[[A]] %uint_0
// CHECK: OpFMul %float
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %[[B]] %uint_0
// CHECK-NEXT: OpStore

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<8xf32>, %b: memref<?xf32>, %k: f32, %n: index) kernel {
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %bd : index
      %i = arith.addi %base, %tx : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %j = arith.remui %i, %c8 : index
        %v = memref.load %a[%j] : memref<8xf32>
        %s = arith.mulf %v, %k : f32
        memref.store %s, %b[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @main(%a: memref<8xf32>, %b: memref<?xf32>, %k: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %b, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c64 : index
    gpu.launch_func @kernels::@scale
        blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<8xf32>, %b : memref<?xf32>, %k : f32, %n : index)
    return
  }
}
