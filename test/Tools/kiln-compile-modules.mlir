// RUN: rm -rf %t && kiln-compile %s --target=vulkan --target-env=vulkan-1.1 --emit=spirv -o %t
// RUN: spirv-val --target-env vulkan1.1 %t/first_kernel.spv
// RUN: spirv-val --target-env vulkan1.1 %t/second_kernel.spv
// RUN: spirv-dis %t/first_kernel.spv | FileCheck %s --check-prefix=FIRST
// RUN: spirv-dis %t/second_kernel.spv | FileCheck %s --check-prefix=SECOND
// RUN: kiln-translate --deserialize-spirv %t/first_kernel.spv | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: kiln-translate --deserialize-spirv %t/first_kernel.spv | kiln-translate --no-implicit-module --serialize-spirv -o %t/again.spv
// RUN: spirv-val --target-env vulkan1.1 %t/again.spv
// RUN: kiln-compile %s --target=vulkan --target-env=vulkan-1.1 --emit=mlir | FileCheck %s --check-prefix=MLIR

// Two GPU modules give two files in the -o directory; --emit=mlir prints the
// gpu.binary ops; kiln-translate round-trips the SPIR-V.
// FIRST: OpEntryPoint GLCompute %{{.*}} "first_kernel"
// FIRST: OpExecutionMode %{{.*}} LocalSize 32 1 1
// SECOND: OpEntryPoint GLCompute %{{.*}} "second_kernel"
// SECOND: OpExecutionMode %{{.*}} LocalSize 8 8 1
// ROUNDTRIP: spirv.module Logical GLSL450 requires #spirv.vce<v1.3
// ROUNDTRIP: spirv.EntryPoint "GLCompute" @first_kernel
// MLIR-DAG: gpu.binary @first_kernel
// MLIR-DAG: gpu.binary @second_kernel
module {
  func.func @first(%a: memref<32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %x = memref.load %a[%tx] : memref<32xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%tx] : memref<32xf32>
      gpu.terminator
    }
    return
  }
  func.func @second(%a: memref<8x8xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
      %x = memref.load %a[%ty, %tx] : memref<8x8xi32>
      %y = arith.muli %x, %x : i32
      memref.store %y, %a[%ty, %tx] : memref<8x8xi32>
      gpu.terminator
    }
    return
  }
}
