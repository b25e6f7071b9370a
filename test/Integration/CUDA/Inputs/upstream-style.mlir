// Written as upstream's CUDA integration tests are: host memory registered
// with gpu.host_register, lowered by -gpu-lower-to-nvvm-pipeline.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square(%buf: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      %s = arith.mulf %v, %v : f32
      memref.store %s, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 3.0 : f32
    %m = memref.alloc(%c4) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%m : memref<?xf32>)
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xf32>)
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.host_unregister %u : memref<*xf32>
    return
  }
}
