// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// RGBA pixel tint on memref<?xvector<4xf32>>: per-pixel vec4 multiply plus a splat and an extracted alpha.

// CHECK: OpEntryPoint GLCompute %{{.*}} "tint_pixels_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK-DAG: OpDecorate %_runtimearr_v4float ArrayStride 16
// CHECK-DAG: OpDecorate %[[PX:[a-z_0-9]+]] Binding 0
// CHECK-DAG: OpDecorate %[[TINT:[a-z_0-9]+]] Binding 1
// CHECK: %v4float = OpTypeVector %float 4
// CHECK: %_runtimearr_v4float = OpTypeRuntimeArray %v4float
// CHECK: OpFunction
// CHECK: %[[P:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_v4float %[[PX]] %uint_0 %{{[0-9]+}}
// CHECK: OpAccessChain %_ptr_StorageBuffer_v4float %[[TINT]] %uint_0 %uint_0
// CHECK: OpFMul %v4float
// CHECK: OpCompositeExtract %float %{{[0-9]+}} 3
// CHECK: OpCompositeConstruct %v4float
// CHECK: OpFMul %v4float
// The store reuses the load's access chain (CSE).
// CHECK-NEXT: OpStore %[[P]]

func.func @tint_pixels(%px: memref<?xvector<4xf32>>, %tint: memref<1xvector<4xf32>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %px, %c0 : memref<?xvector<4xf32>>
  %blocks = arith.ceildivui %n, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %count = memref.dim %px, %k0 : memref<?xvector<4xf32>>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %count : index
    scf.if %ok {
      %p = memref.load %px[%i] : memref<?xvector<4xf32>>
      %t = memref.load %tint[%k0] : memref<1xvector<4xf32>>
      %tinted = arith.mulf %p, %t : vector<4xf32>
      // Premultiply by the original alpha.
      %alpha = vector.extract %p[3] : f32 from vector<4xf32>
      %a4 = vector.broadcast %alpha : f32 to vector<4xf32>
      %out = arith.mulf %tinted, %a4 : vector<4xf32>
      memref.store %out, %px[%i] : memref<?xvector<4xf32>>
    }
    gpu.terminator
  }
  return
}
