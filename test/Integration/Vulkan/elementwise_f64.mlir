// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// f64 buffers: ((x + 1e10) - 1e10) * y keeps x only in double precision.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [0, 0.625, 2.25, 4.875, 8.5, 13.125, 18.75, 25.375, 33, 41.625, 51.25, 61.875, 73.5, 86.125, 99.75, 114.375, 130, 146.625, 164.25, 182.875, 202.5, 223.125, 244.75, 267.375, 291, 315.625, 341.25, 367.875, 395.5, 424.125, 453.75, 484.375]

func.func private @printMemrefF64(memref<*xf64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %half = arith.constant 0.5 : f64
  %quarter = arith.constant 0.25 : f64
  %x = memref.alloc() : memref<32xf64>
  %y = memref.alloc() : memref<32xf64>
  %z = memref.alloc() : memref<32xf64>
  // x[i] = i / 2, y[i] = i + 1/4.
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f64
    %xv = arith.mulf %f, %half : f64
    %yv = arith.addf %f, %quarter : f64
    memref.store %xv, %x[%i] : memref<32xf64>
    memref.store %yv, %y[%i] : memref<32xf64>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %big = arith.constant 1.0e10 : f64
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %a = memref.load %x[%i] : memref<32xf64>
    %b = memref.load %y[%i] : memref<32xf64>
    // (x + 1e10) - 1e10 == x only in double precision (f32 would round to multiples of 1024).
    %t0 = arith.addf %a, %big : f64
    %t = arith.subf %t0, %big : f64
    %r = arith.mulf %t, %b : f64
    memref.store %r, %z[%i] : memref<32xf64>
    gpu.terminator
  }
  %u = memref.cast %z : memref<32xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  memref.dealloc %x : memref<32xf64>
  memref.dealloc %y : memref<32xf64>
  memref.dealloc %z : memref<32xf64>
  return
}
