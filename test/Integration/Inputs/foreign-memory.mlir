// A launch on device 1 that passes memory device 0 allocated: refused, with
// the kernel, the argument and both devices named.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<8xf32>, %f: f32) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<8xf32>
      %w = arith.mulf %v, %f : f32
      memref.store %w, %x[%i] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %d1 = arith.constant 1 : i32
    %two = arith.constant 2.0 : f32
    %a = gpu.alloc () : memref<8xf32>
    gpu.set_default_device %d1
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>, %two : f32)
    return
  }
}
