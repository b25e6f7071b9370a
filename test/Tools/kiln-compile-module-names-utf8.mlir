// A GPU module named in UTF-8 names its file in UTF-8: bytes above 0x7f are
// not control characters (they were refused as such, read as signed chars).
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s --emit=spirv -o %t
// RUN: ls %t | FileCheck %s
// RUN: spirv-val --target-env vulkan1.3 %t/núcleo.spv
// CHECK: núcleo.spv
module attributes {gpu.container_module} {
gpu.module @"núcleo" {
  gpu.func @k(%a: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %i = gpu.thread_id x
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %a[%i] : memref<8xf32>
    gpu.return
  }
}
func.func @main(%a: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch_func @"núcleo"::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
  return
}
}
