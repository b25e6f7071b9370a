// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// One outlined kernel launched with 64- and 128-thread blocks is rejected: an entry point has one workgroup size.

// CHECK: :[[@LINE+27]]:5: error: kernel 'inc' is launched with block size (128, 1, 1) here and (64, 1, 1) elsewhere; a SPIR-V entry point has one workgroup size
// CHECK: :[[@LINE+24]]:5: note: other launch here

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @inc(%buf: memref<1024xi32>) kernel {
      %one = arith.constant 1 : i32
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %bd : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %buf[%i] : memref<1024xi32>
      %s = arith.addi %v, %one : i32
      memref.store %s, %buf[%i] : memref<1024xi32>
      gpu.return
    }
  }

  func.func @main(%buf: memref<1024xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@inc blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<1024xi32>)
    gpu.launch_func @kernels::@inc blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%buf : memref<1024xi32>)
    return
  }
}
