// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Two kernels in one outlined gpu.module with different block sizes, the second reading what the first wrote.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [63, 63.5, 64, 64.5, 65, 65.5, 66, 66.5, 67, 67.5, 68, 68.5, 69, 69.5, 70, 70.5, 71, 71.5, 72, 72.5, 73, 73.5, 74, 74.5, 75, 75.5, 76, 76.5, 77, 77.5, 78, 78.5, 79, 79.5, 80, 80.5, 81, 81.5, 82, 82.5, 83, 83.5, 84, 84.5, 85, 85.5, 86, 86.5, 87, 87.5, 88, 88.5, 89, 89.5, 90, 90.5, 91, 91.5, 92, 92.5, 93, 93.5, 94, 94.5]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y[i] = k * x[i]
    gpu.func @scale(%x: memref<64xf32>, %y: memref<64xf32>, %k: f32) kernel {
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c16 : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %x[%i] : memref<64xf32>
      %s = arith.mulf %v, %k : f32
      memref.store %s, %y[%i] : memref<64xf32>
      gpu.return
    }
    // z[i] = y[i] + x[63 - i], reading what @scale wrote.
    gpu.func @add_reversed(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c63 = arith.constant 63 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %c32 : index
      %i = arith.addi %base, %tx : index
      %j = arith.subi %c63, %i : index
      %a = memref.load %y[%i] : memref<64xf32>
      %b = memref.load %x[%j] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %z[%i] : memref<64xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %k = arith.constant 1.5 : f32
    %x = memref.alloc() : memref<64xf32>
    %y = memref.alloc() : memref<64xf32>
    %z = memref.alloc() : memref<64xf32>
    // x[i] = i.
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<64xf32>
    }
    // Two kernels of one gpu.module with different block sizes.
    gpu.launch_func @kernels::@scale
        blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%x : memref<64xf32>, %y : memref<64xf32>, %k : f32)
    gpu.launch_func @kernels::@add_reversed
        blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<64xf32>, %y : memref<64xf32>, %z : memref<64xf32>)
    %u = memref.cast %z : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %x : memref<64xf32>
    memref.dealloc %y : memref<64xf32>
    memref.dealloc %z : memref<64xf32>
    return
  }
}
