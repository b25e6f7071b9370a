// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// gpu.alloc / gpu.memcpy (host to device, device to host) / gpu.dealloc around a kernel on device buffers.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [1, 2.5, 4, 5.5, 7, 8.5, 10, 11.5, 13, 14.5, 16, 17.5, 19, 20.5, 22, 23.5, 25, 26.5, 28, 29.5, 31, 32.5, 34, 35.5, 37, 38.5, 40, 41.5, 43, 44.5, 46, 47.5, 49, 50.5, 52, 53.5, 55, 56.5, 58, 59.5, 61, 62.5, 64, 65.5, 67, 68.5, 70, 71.5, 73, 74.5, 76, 77.5, 79, 80.5, 82, 83.5, 85, 86.5, 88, 89.5, 91, 92.5, 94, 95.5]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %half = arith.constant 0.5 : f32
  %sentinel = arith.constant -1.0 : f32
  %x = memref.alloc() : memref<64xf32>
  %y = memref.alloc() : memref<64xf32>
  // x[i] = i / 2; y starts as -1 and must be overwritten by the copy back.
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %half : f32
    memref.store %v, %x[%i] : memref<64xf32>
    memref.store %sentinel, %y[%i] : memref<64xf32>
  }
  // Device buffers: copy x in, y = 3 x + 1 on the device, copy y out.
  %dx = gpu.alloc () : memref<64xf32>
  %dy = gpu.alloc () : memref<64xf32>
  gpu.memcpy %dx, %x : memref<64xf32>, memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %three = arith.constant 3.0 : f32
    %one = arith.constant 1.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %dx[%i] : memref<64xf32>
    %m = arith.mulf %v, %three : f32
    %r = arith.addf %m, %one : f32
    memref.store %r, %dy[%i] : memref<64xf32>
    gpu.terminator
  }
  gpu.memcpy %y, %dy : memref<64xf32>, memref<64xf32>
  gpu.dealloc %dx : memref<64xf32>
  gpu.dealloc %dy : memref<64xf32>
  %u = memref.cast %y : memref<64xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<64xf32>
  memref.dealloc %y : memref<64xf32>
  return
}
