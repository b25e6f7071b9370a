// RUN: kiln-vulkan-runner %s --validate -O3 | FileCheck %s
// Async gpu ops chained by tokens (streams and events in the runtime):
// device buffers, an async copy in, two dependent launches, an async copy out,
// then a host wait. x[i] = i; k1: y = 2 * x; k2: y = y + 1.

// CHECK: [1,  3,  5,  7,  9,  11,  13,  15,  17,  19,  21,  23,  25,  27,  29,  31]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%x: memref<16xf32>, %y: memref<16xf32>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @plus_one(%y: memref<16xf32>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %y[%i] : memref<16xf32>
      %one = arith.constant 1.0 : f32
      %w = arith.addf %v, %one : f32
      memref.store %w, %y[%i] : memref<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %host = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<16xf32>
    }
    %t0 = gpu.wait async
    %x, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %y, %t2 = gpu.alloc async [%t1] () : memref<16xf32>
    %t3 = gpu.memcpy async [%t2] %x, %host : memref<16xf32>, memref<16xf32>
    %t4 = gpu.launch_func async [%t3] @kernels::@twice
        blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%x : memref<16xf32>, %y : memref<16xf32>)
    %t5 = gpu.launch_func async [%t4] @kernels::@plus_one
        blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%y : memref<16xf32>)
    %t6 = gpu.memcpy async [%t5] %host, %y : memref<16xf32>, memref<16xf32>
    %t7 = gpu.dealloc async [%t6] %x : memref<16xf32>
    %t8 = gpu.dealloc async [%t7] %y : memref<16xf32>
    gpu.wait [%t8]
    %u = memref.cast %host : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<16xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
