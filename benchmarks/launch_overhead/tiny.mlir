// The kernel of kiln-cuda-launch-overhead, compiled to PTX by kiln-compile at
// build time: buf[i] += 1 for one block of 64 threads (as shaders/tiny.comp
// on Vulkan).
gpu.module @tiny {
  gpu.func @main(%buf: memref<64xi32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<64xi32>
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    memref.store %w, %buf[%i] : memref<64xi32>
    gpu.return
  }
}
