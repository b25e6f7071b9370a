// Host memory passed straight to a kernel, and device memory through
// gpu.alloc / gpu.memcpy: out[i] = 2 * in[i] + i.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%in: memref<8xf32>, %out: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<8xf32>
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %v, %two : f32
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %r = arith.addf %d, %fi : f32
      memref.store %r, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %cst = arith.constant 1.5 : f32
    %in = memref.alloc() : memref<8xf32>
    linalg.fill ins(%cst : f32) outs(%in : memref<8xf32>)
    %out = memref.alloc() : memref<8xf32>
    %dev = gpu.alloc () : memref<8xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%in : memref<8xf32>, %dev : memref<8xf32>)
    gpu.memcpy %out, %dev : memref<8xf32>, memref<8xf32>
    gpu.dealloc %dev : memref<8xf32>
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
