// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// A gpu.launch_func with 64 threads against a spirv.entry_point_abi workgroup_size of 32 is rejected.

// CHECK: error: block size (64, 1, 1) differs from the workgroup size (32, 1, 1) in the spirv.entry_point_abi of kernel 'negate'

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @negate(%buf: memref<256xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c32 : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %buf[%i] : memref<256xf32>
      %n = arith.negf %v : f32
      memref.store %n, %buf[%i] : memref<256xf32>
      gpu.return
    }
  }

  func.func @main(%buf: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@negate
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<256xf32>)
    return
  }
}
