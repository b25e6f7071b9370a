// gpu.dynamic_shared_memory sized at launch: the kernel's workgroup array is
// a specialization constant set from each launch's
// dynamic_shared_memory_size (one pipeline per size), through the runner,
// an executable, mlir-runner and spirv-cpu; CUDA's shared memory is native.
// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe && %t.exe | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s --checked | FileCheck %s
// RUN: kiln-compile %s --target=cuda --emit=ptx -o %t.ptx
// (Its @too_big is test/Integration/Runner/dynamic-shared-memory-limit.mlir's.)

// Launch 1 (512 bytes, a view at byte 256): each of 64 invocations writes
// its id, then reads its mirror's: 63 - t.
// CHECK: [63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
// Launches 2 and 3 of one kernel with n = 64 and 256 f32 (a dynamic view,
// n from the host): 32 invocations fill x[i] = i, then invocation t sums
// x[n - 1 - i] for i = t, t + 32, ... below n: 94 - 2t for n = 64 and
// 1144 - 8t for n = 256.
// CHECK: [94,   92,   90,
// CHECK: [1144,   1136,   1128,

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %buf = memref.alloc() : memref<64xi32>
  %bytes = arith.constant 512 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %at = arith.constant 256 : index
    %w = memref.view %m[%at][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xi32, #gpu.address_space<workgroup>>
    %ti = arith.index_cast %tx : index to i32
    memref.store %ti, %w[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c63 = arith.constant 63 : index
    %r = arith.subi %c63, %tx : index
    %v = memref.load %w[%r] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %v, %buf[%tx] : memref<64xi32>
    gpu.terminator
  }
  %u = memref.cast %buf : memref<64xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()

  %sums = memref.alloc() : memref<2x32xf32>
  scf.for %k = %c0 to %c2 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    %n = arith.select %first, %c64, %c256 : index
    %n4 = arith.muli %n, %c4 : index
    %size = arith.index_cast %n4 : index to i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %size {
      %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %zero = arith.constant 0 : index
      %x = memref.view %m[%zero][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      scf.for %i = %tx to %n step %c32 {
        %ii = arith.index_cast %i : index to i32
        %f = arith.sitofp %ii : i32 to f32
        memref.store %f, %x[%i] : memref<?xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %init = arith.constant 0.0 : f32
      %sum = scf.for %i = %tx to %n step %c32 iter_args(%acc = %init) -> f32 {
        %j = arith.subi %last, %i : index
        %v = memref.load %x[%j] : memref<?xf32, #gpu.address_space<workgroup>>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %sum, %sums[%k, %tx] : memref<2x32xf32>
      gpu.terminator
    }
  }
  %su = memref.cast %sums : memref<2x32xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()
  memref.dealloc %buf : memref<64xi32>
  memref.dealloc %sums : memref<2x32xf32>
  return
}

func.func @too_big() {
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1048576 : i32
  %out = memref.alloc() : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %zero = arith.constant 0 : index
    %x = memref.view %m[%zero][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%zero] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%zero] : memref<1xf32>
    gpu.terminator
  }
  memref.dealloc %out : memref<1xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
