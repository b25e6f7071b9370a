// A kernel whose math lowers to a libdevice call (__nv_expf).
gpu.module @kernels {
  gpu.func @exp(%buf: memref<64xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<64xf32>
    %e = math.exp %v : f32
    memref.store %e, %buf[%i] : memref<64xf32>
    gpu.return
  }
}
