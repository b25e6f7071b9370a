// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// cf.cond_br / cf.br blocks inside a kernel: a piecewise function, an early exit and a loop with a back edge.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 40] strides = [40, 1] data =
// CHECK-NEXT: {{\[\[}}20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129],
// CHECK-NEXT: [-10, -19, -27, -34, -40, -45, -49, -52, -54, -55, -55, -54, -52, -49, -45, -40, -34, -27, -19, -10, 0, 11, 23, 36, 50, 65, 81, 98, 116, 135, 155, 176, 198, 221, 245, 270, 296, 323, 351, 380]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 40 : index
  %ten = arith.constant 10.0 : f32
  %x = memref.alloc() : memref<40xf32>
  %y = memref.alloc() : memref<2x40xf32>
  // x[i] = i - 10.
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.subf %f, %ten : f32
    memref.store %v, %x[%i] : memref<40xf32>
  }
  // Control flow written with cf.cond_br / cf.br blocks in the kernel body.
  // y[0][i]: -2x for x < 0, x for 0 <= x < 10, 100 + x otherwise.
  // y[1][i]: x[0] + ... + x[i] with a cf loop (back edge, loop-carried values).
  // Threads past the end branch straight to the exit block.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %tenf = arith.constant 10.0 : f32
    %m2 = arith.constant -2.0 : f32
    %hundred = arith.constant 100.0 : f32
    %row0 = arith.constant 0 : index
    %row1 = arith.constant 1 : index
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    cf.cond_br %ok, ^load, ^exit
  ^load:
    %v = memref.load %x[%i] : memref<40xf32>
    %neg = arith.cmpf olt, %v, %zero : f32
    cf.cond_br %neg, ^negative, ^nonneg
  ^negative:
    %a = arith.mulf %v, %m2 : f32
    cf.br ^store(%a : f32)
  ^nonneg:
    %small = arith.cmpf olt, %v, %tenf : f32
    cf.cond_br %small, ^store(%v : f32), ^large
  ^large:
    %b = arith.addf %v, %hundred : f32
    cf.br ^store(%b : f32)
  ^store(%r: f32):
    memref.store %r, %y[%row0, %i] : memref<2x40xf32>
    cf.br ^head(%row0, %zero : index, f32)
  ^head(%j: index, %acc: f32):
    %more = arith.cmpi ule, %j, %i : index
    cf.cond_br %more, ^body, ^done
  ^body:
    %xj = memref.load %x[%j] : memref<40xf32>
    %acc1 = arith.addf %acc, %xj : f32
    %j1 = arith.addi %j, %row1 : index
    cf.br ^head(%j1, %acc1 : index, f32)
  ^done:
    memref.store %acc, %y[%row1, %i] : memref<2x40xf32>
    cf.br ^exit
  ^exit:
    gpu.terminator
  }
  %u = memref.cast %y : memref<2x40xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<40xf32>
  memref.dealloc %y : memref<2x40xf32>
  return
}
