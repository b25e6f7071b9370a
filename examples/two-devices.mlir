// One program on two devices: y = a * x + y split in halves, one half on each
// device at the same time, then a result moved from device 0's memory to
// device 1's.
//
//   build/bin/kiln-vulkan-runner examples/two-devices.mlir --device=0,1
//   build/bin/kiln-vulkan-runner examples/two-devices.mlir --device=0,0
//
// `--device` lists the program's devices; `gpu.set_default_device N` picks
// the N-th for what follows on this thread (docs/runtime.md, Several
// devices). Without two GPUs, list one device twice (`--device=0,0`): two
// independent devices on one. The same flags work for kiln-cuda-runner,
// kiln-spirv-cpu-runner and kiln-compile --emit=exe executables
// (KILN_VULKAN_DEVICE=0,0 for mlir-runner with the runtime library).
//
// For x[i] = i, y[i] = 1000 - i and a = 2 (100 elements), y becomes
// 1000 + i; device 0 then writes 10 * (y[i] - 1000) for the first 8 elements
// into its memory, device 1 adds 1 to its copy of them, and the program
// prints 10 * i + 1.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %blocks = arith.constant 1 : index
    %n = arith.constant 100 : index
    %half = arith.constant 50 : index
    %dev0 = arith.constant 0 : i32
    %dev1 = arith.constant 1 : i32
    %a = arith.constant 2.0 : f32
    %x = memref.alloc(%n) : memref<?xf32>
    %y = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %xi = arith.sitofp %ii : i32 to f32
      %k = arith.constant 1000.0 : f32
      %yi = arith.subf %k, %xi : f32
      memref.store %xi, %x[%i] : memref<?xf32>
      memref.store %yi, %y[%i] : memref<?xf32>
    }

    // Host memory works on every device: each device takes a half (64
    // threads over 50 elements), and the two launches run at the same time.
    gpu.set_default_device %dev0
    %s0 = gpu.wait async
    %t0 = gpu.launch async [%s0]
               blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %i, %half : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %axi = arith.mulf %a, %xi : f32
        %r = arith.addf %axi, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    gpu.set_default_device %dev1
    %s1 = gpu.wait async
    %t1 = gpu.launch async [%s1]
               blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %k = arith.addi %base, %tx : index
      %i = arith.addi %half, %k : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %axi = arith.mulf %a, %xi : f32
        %r = arith.addf %axi, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    gpu.wait [%t0, %t1]

    // gpu.alloc memory belongs to the device current when it was made;
    // gpu.memcpy moves it between devices.
    gpu.set_default_device %dev0
    %on0 = gpu.alloc () : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %v = memref.load %y[%tx] : memref<?xf32>
      %k = arith.constant 1000.0 : f32
      %ten = arith.constant 10.0 : f32
      %d = arith.subf %v, %k : f32
      %d10 = arith.mulf %d, %ten : f32
      memref.store %d10, %on0[%tx] : memref<8xf32>
      gpu.terminator
    }
    gpu.set_default_device %dev1
    %on1 = gpu.alloc () : memref<8xf32>
    gpu.memcpy %on1, %on0 : memref<8xf32>, memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %v = memref.load %on1[%tx] : memref<8xf32>
      %one = arith.constant 1.0 : f32
      %w = arith.addf %v, %one : f32
      memref.store %w, %on1[%tx] : memref<8xf32>
      gpu.terminator
    }
    %out = memref.alloc() : memref<8xf32>
    gpu.memcpy %out, %on1 : memref<8xf32>, memref<8xf32>
    gpu.dealloc %on0 : memref<8xf32>
    gpu.dealloc %on1 : memref<8xf32>

    %uy = memref.cast %y : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%uy) : (memref<*xf32>) -> ()
    %uo = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    return
  }
}
