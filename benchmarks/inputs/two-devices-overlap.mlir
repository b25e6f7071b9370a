// Two async launches of a kernel that spins for about 25 ms on lavapipe
// with one rasterizer thread, waited for together: on two devices
// (@two_devices) they overlap, on one (@one_device) they take turns.
//
//   env LP_NUM_THREADS=1 build/bin/kiln-vulkan-runner \
//       benchmarks/inputs/two-devices-overlap.mlir --device=0,0 -e two_devices \
//       --entry-point-result=void --print-timing
//
// (benchmarks/README.md, Several devices at once, has what it measured.)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spin(%x: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %b, %c64 : index
      %i = arith.addi %base, %t : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 20000 : index
      %init = memref.load %x[%i] : memref<4096xf32>
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> f32 {
        %h = arith.constant 0.999 : f32
        %o = arith.constant 0.001 : f32
        %m = arith.mulf %acc, %h : f32
        %a = arith.addf %m, %o : f32
        scf.yield %a : f32
      }
      memref.store %r, %x[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @two_devices() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %g = arith.constant 64 : index
    %d0 = arith.constant 0 : i32
    %d1 = arith.constant 1 : i32
    %a = memref.alloc() : memref<4096xf32>
    %b = memref.alloc() : memref<4096xf32>
    gpu.set_default_device %d0
    %s0 = gpu.wait async
    %t0 = gpu.launch_func async [%s0] @kernels::@spin blocks in (%g, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>)
    gpu.set_default_device %d1
    %s1 = gpu.wait async
    %t1 = gpu.launch_func async [%s1] @kernels::@spin blocks in (%g, %c1, %c1) threads in (%c64, %c1, %c1) args(%b : memref<4096xf32>)
    gpu.wait [%t0, %t1]
    return
  }
  func.func @one_device() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %g = arith.constant 64 : index
    %d0 = arith.constant 0 : i32
    %d1 = arith.constant 0 : i32
    %a = memref.alloc() : memref<4096xf32>
    %b = memref.alloc() : memref<4096xf32>
    gpu.set_default_device %d0
    %s0 = gpu.wait async
    %t0 = gpu.launch_func async [%s0] @kernels::@spin blocks in (%g, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>)
    gpu.set_default_device %d1
    %s1 = gpu.wait async
    %t1 = gpu.launch_func async [%s1] @kernels::@spin blocks in (%g, %c1, %c1) threads in (%c64, %c1, %c1) args(%b : memref<4096xf32>)
    gpu.wait [%t0, %t1]
    return
  }
}
