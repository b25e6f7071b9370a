// GPU module names become file names in -o's directory: one that would
// leave the directory or hide in it is refused, and nothing is written.
// RUN: rm -rf %t && mkdir -p %t/out
// RUN: not kiln-compile %s --emit=spirv -o %t/out 2>&1 | FileCheck %s
// RUN: not kiln-compile %s --target=cuda --emit=ptx -o %t/out 2>&1 | FileCheck %s
// RUN: ls -A %t | FileCheck %s --check-prefix=NOTHING
// RUN: ls -A %t/out | count 0
// CHECK: kiln-compile-module-names.mlir:[[@LINE+4]]:1: error: GPU module name '../escape' cannot name an output file (it holds a path separator, a control character or a leading '.'); rename the module
// NOTHING: out
// NOTHING-NOT: escape
module attributes {gpu.container_module} {
gpu.module @"../escape" {
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
  gpu.launch_func @"../escape"::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
  return
}
}
