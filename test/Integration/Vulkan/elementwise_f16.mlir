// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// f16 buffers and f16 arithmetic (x * y + x, x - y), widened to f32 on the host for printing.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}0, 0.71875, 1.375, 1.96875, 2.5, 2.96875, 3.375, 3.71875, 4, 4.21875, 4.375, 4.46875, 4.5, 4.46875, 4.375, 4.21875, 4, 3.71875, 3.375, 2.96875, 2.5, 1.96875, 1.375, 0.71875, 0, -0.78125, -1.625, -2.53125, -3.5, -4.53125, -5.625, -6.78125],
// CHECK-NEXT: [-2, -1.625, -1.25, -0.875, -0.5, -0.125, 0.25, 0.625, 1, 1.375, 1.75, 2.125, 2.5, 2.875, 3.25, 3.625, 4, 4.375, 4.75, 5.125, 5.5, 5.875, 6.25, 6.625, 7, 7.375, 7.75, 8.125, 8.5, 8.875, 9.25, 9.625]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %quarter = arith.constant 0.25 : f32
  %eighth = arith.constant 0.125 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<32xf16>
  %y = memref.alloc() : memref<32xf16>
  %z = memref.alloc() : memref<32xf16>
  %d = memref.alloc() : memref<32xf16>
  // x[i] = i / 4, y[i] = 2 - i / 8: all exact in f16.
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %xv = arith.mulf %f, %quarter : f32
    %e = arith.mulf %f, %eighth : f32
    %yv = arith.subf %two, %e : f32
    %xh = arith.truncf %xv : f32 to f16
    %yh = arith.truncf %yv : f32 to f16
    memref.store %xh, %x[%i] : memref<32xf16>
    memref.store %yh, %y[%i] : memref<32xf16>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %a = memref.load %x[%i] : memref<32xf16>
    %b = memref.load %y[%i] : memref<32xf16>
    // z = x * y + x, d = x - y, computed in f16.
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %p, %a : f16
    %df = arith.subf %a, %b : f16
    memref.store %s, %z[%i] : memref<32xf16>
    memref.store %df, %d[%i] : memref<32xf16>
    gpu.terminator
  }
  // Widen to f32 on the host for printing: rows z, d.
  %out = memref.alloc() : memref<2x32xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %zh = memref.load %z[%i] : memref<32xf16>
    %dh = memref.load %d[%i] : memref<32xf16>
    %zf = arith.extf %zh : f16 to f32
    %df = arith.extf %dh : f16 to f32
    memref.store %zf, %out[%c0, %i] : memref<2x32xf32>
    memref.store %df, %out[%c1, %i] : memref<2x32xf32>
  }
  %u = memref.cast %out : memref<2x32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<32xf16>
  memref.dealloc %y : memref<32xf16>
  memref.dealloc %z : memref<32xf16>
  memref.dealloc %d : memref<32xf16>
  memref.dealloc %out : memref<2x32xf32>
  return
}
