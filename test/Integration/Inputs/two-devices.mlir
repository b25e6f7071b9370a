// A program on two devices: data goes to device 0, is scaled there, moves
// from device 0's memory to device 1's, is scaled there, and comes back;
// then each device scales host memory with an async launch, and the two
// are waited for together. From x[i] = i: 6 * i comes back from device 1,
// then device 0 doubles x (2 * i) while device 1 triples the 6 * i (18 * i).

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

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
    %d0 = arith.constant 0 : i32
    %d1 = arith.constant 1 : i32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %host = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<8xf32>
    %c0 = arith.constant 0 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<8xf32>
    }

    // Device 0: its memory, a launch on it.
    gpu.set_default_device %d0
    %a = gpu.alloc () : memref<8xf32>
    gpu.memcpy %a, %host : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>, %two : f32)

    // Device 1: a copy from device 0's memory into its own, a launch on it.
    gpu.set_default_device %d1
    %b = gpu.alloc () : memref<8xf32>
    gpu.memcpy %b, %a : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%b : memref<8xf32>, %three : f32)
    gpu.memcpy %out, %b : memref<8xf32>, memref<8xf32>
    %uo = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()

    // Host memory on each device, one async launch each, waited together.
    gpu.set_default_device %d0
    %s0 = gpu.wait async
    %t0 = gpu.launch_func async [%s0] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%host : memref<8xf32>, %two : f32)
    gpu.set_default_device %d1
    %s1 = gpu.wait async
    %t1 = gpu.launch_func async [%s1] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xf32>, %three : f32)
    gpu.wait [%t0, %t1]
    %uh = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%uh) : (memref<*xf32>) -> ()
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()

    // Memory is freed by its own device, whichever is current.
    gpu.dealloc %a : memref<8xf32>
    gpu.dealloc %b : memref<8xf32>
    return
  }
}
