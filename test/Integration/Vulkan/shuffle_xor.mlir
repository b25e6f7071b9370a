// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// gpu.shuffle xor with width 8: exchanges with lanes i ^ 1 and i ^ 5 and a butterfly max over each subgroup.
// kiln-bundle subgroup_size=8 (the expected values hold for 8-wide subgroups)

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}37, 0, 47, 10, 57, 20, 3, 30, 13, 40, 23, 50, 33, 60, 43, 6, 53, 16, 63, 26, 9, 36, 19, 46, 29, 56, 39, 2, 49, 12, 59, 22, 5, 32, 15, 42, 25, 52, 35, 62, 45, 8, 55, 18, 1, 28, 11, 38, 21, 48, 31, 58, 41, 4, 51, 14, 61, 24, 7, 34, 17, 44, 27, 54],
// CHECK-NEXT: [57, 20, 3, 30, 37, 0, 47, 10, 33, 60, 43, 6, 13, 40, 23, 50, 9, 36, 19, 46, 53, 16, 63, 26, 49, 12, 59, 22, 29, 56, 39, 2, 25, 52, 35, 62, 5, 32, 15, 42, 1, 28, 11, 38, 45, 8, 55, 18, 41, 4, 51, 14, 21, 48, 31, 58, 17, 44, 27, 54, 61, 24, 7, 34],
// CHECK-NEXT: [57, 57, 57, 57, 57, 57, 57, 57, 60, 60, 60, 60, 60, 60, 60, 60, 63, 63, 63, 63, 63, 63, 63, 63, 59, 59, 59, 59, 59, 59, 59, 59, 62, 62, 62, 62, 62, 62, 62, 62, 55, 55, 55, 55, 55, 55, 55, 55, 58, 58, 58, 58, 58, 58, 58, 58, 61, 61, 61, 61, 61, 61, 61, 61],
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %k37 = arith.constant 37 : i32
  %k64 = arith.constant 64 : i32
  %in = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<4x64xf32>
  // in[i] = (37 i) mod 64: a permutation of 0..63.
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %ii, %k37 : i32
    %r = arith.remui %m, %k64 : i32
    %f = arith.sitofp %r : i32 to f32
    memref.store %f, %in[%i] : memref<64xf32>
  }
  // Width 8 = lavapipe's subgroup size. Rows: in[i ^ 1], in[i ^ 5],
  // the butterfly max over the 8 lanes (xor 4, 2, 1), and the valid flags.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %width = arith.constant 8 : i32
    %o1 = arith.constant 1 : i32
    %o2 = arith.constant 2 : i32
    %o4 = arith.constant 4 : i32
    %o5 = arith.constant 5 : i32
    %k3 = arith.constant 3 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<64xf32>
    %s1, %ok1 = gpu.shuffle xor %v, %o1, %width : f32
    %s5, %ok5 = gpu.shuffle xor %v, %o5, %width : f32
    %t4, %ok4 = gpu.shuffle xor %v, %o4, %width : f32
    %m4 = arith.maximumf %v, %t4 : f32
    %t2, %ok2 = gpu.shuffle xor %m4, %o2, %width : f32
    %m2 = arith.maximumf %m4, %t2 : f32
    %t1, %ok1b = gpu.shuffle xor %m2, %o1, %width : f32
    %m1 = arith.maximumf %m2, %t1 : f32
    %a = arith.andi %ok1, %ok5 : i1
    %b = arith.andi %ok4, %ok2 : i1
    %c = arith.andi %a, %b : i1
    %valid = arith.andi %c, %ok1b : i1
    %vf = arith.select %valid, %one, %zero : f32
    memref.store %s1, %out[%c0, %i] : memref<4x64xf32>
    memref.store %s5, %out[%c1, %i] : memref<4x64xf32>
    memref.store %m1, %out[%c2, %i] : memref<4x64xf32>
    memref.store %vf, %out[%k3, %i] : memref<4x64xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<4x64xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<64xf32>
  memref.dealloc %out : memref<4x64xf32>
  return
}
