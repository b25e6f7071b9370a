// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// scf.for with iter_args inside a kernel: a thread-dependent trip count and a step of 3.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}0, 2.5, 7.5, 15, 25, 37.5, 52.5, 70, 90, 112.5, 137.5, 165, 195, 227.5, 262.5, 300, 340, 382.5, 427.5, 475, 525, 577.5, 632.5, 690, 750, 812.5, 877.5, 945, 1015, 1087.5, 1162.5, 1240],
// CHECK-NEXT: [82.5, 93.5, 104.5, 115.5, 126.5, 137.5, 148.5, 159.5, 170.5, 181.5, 192.5, 203.5, 214.5, 225.5, 236.5, 247.5, 258.5, 269.5, 280.5, 291.5, 302.5, 313.5, 324.5, 335.5, 346.5, 357.5, 368.5, 379.5, 390.5, 401.5, 412.5, 423.5]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %half = arith.constant 0.5 : f32
  %m = memref.alloc() : memref<32x32xf32>
  %out = memref.alloc() : memref<2x32xf32>
  // m[r][c] = r + c / 2.
  scf.for %r = %c0 to %c32 step %c1 {
    scf.for %c = %c0 to %c32 step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %cf = arith.sitofp %ci : i32 to f32
      %h = arith.mulf %cf, %half : f32
      %v = arith.addf %rf, %h : f32
      memref.store %v, %m[%r, %c] : memref<32x32xf32>
    }
  }
  // Thread r: out[0][r] = sum of m[r][0..r] (a bound that depends on the
  // thread), out[1][r] = sum of m[r][0, 3, 6, ..., 30] (step 3).
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %k3 = arith.constant 3 : index
    %base = arith.muli %bx, %sx : index
    %r = arith.addi %base, %tx : index
    %end = arith.addi %r, %c1 : index
    %tri = scf.for %c = %c0 to %end step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %m[%r, %c] : memref<32x32xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    %st = scf.for %c = %c0 to %c32 step %k3 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %m[%r, %c] : memref<32x32xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    memref.store %tri, %out[%c0, %r] : memref<2x32xf32>
    memref.store %st, %out[%c1, %r] : memref<2x32xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<2x32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<32x32xf32>
  memref.dealloc %out : memref<2x32xf32>
  return
}
