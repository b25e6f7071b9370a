// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref<?x?x?xf32> and memref<?x?x?x?xf32> kernel arguments (run-time sizes), with a rank-1 dynamic bias.

// CHECK: Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [3, 4, 5] strides = [20, 5, 1] data =
// CHECK-NEXT: {{\[\[\[}}1, 3, 5, 7, 9],
// CHECK-NEXT: [21, 23, 25, 27, 29],
// CHECK-NEXT: [41, 43, 45, 47, 49],
// CHECK-NEXT: [61, 63, 65, 67, 69]],
// CHECK-NEXT: {{\[\[}}201, 203, 205, 207, 209],
// CHECK-NEXT: [221, 223, 225, 227, 229],
// CHECK-NEXT: [241, 243, 245, 247, 249],
// CHECK-NEXT: [261, 263, 265, 267, 269]],
// CHECK-NEXT: {{\[\[}}401, 403, 405, 407, 409],
// CHECK-NEXT: [421, 423, 425, 427, 429],
// CHECK-NEXT: [441, 443, 445, 447, 449],
// CHECK-NEXT: [461, 463, 465, 467, 469]]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 4 offset = 0 sizes = [2, 3, 4, 5] strides = [60, 20, 5, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}0, 1, 2, 3, 4],
// CHECK-NEXT: [10, 11, 12, 13, 14],
// CHECK-NEXT: [20, 21, 22, 23, 24],
// CHECK-NEXT: [30, 31, 32, 33, 34]],
// CHECK-NEXT: {{\[\[}}1000, 1001, 1002, 1003, 1004],
// CHECK-NEXT: [1010, 1011, 1012, 1013, 1014],
// CHECK-NEXT: [1020, 1021, 1022, 1023, 1024],
// CHECK-NEXT: [1030, 1031, 1032, 1033, 1034]],
// CHECK-NEXT: {{\[\[}}2000, 2001, 2002, 2003, 2004],
// CHECK-NEXT: [2010, 2011, 2012, 2013, 2014],
// CHECK-NEXT: [2020, 2021, 2022, 2023, 2024],
// CHECK-NEXT: [2030, 2031, 2032, 2033, 2034]]],
// CHECK-NEXT: {{\[\[\[}}100, 101, 102, 103, 104],
// CHECK-NEXT: [110, 111, 112, 113, 114],
// CHECK-NEXT: [120, 121, 122, 123, 124],
// CHECK-NEXT: [130, 131, 132, 133, 134]],
// CHECK-NEXT: {{\[\[}}1100, 1101, 1102, 1103, 1104],
// CHECK-NEXT: [1110, 1111, 1112, 1113, 1114],
// CHECK-NEXT: [1120, 1121, 1122, 1123, 1124],
// CHECK-NEXT: [1130, 1131, 1132, 1133, 1134]],
// CHECK-NEXT: {{\[\[}}2100, 2101, 2102, 2103, 2104],
// CHECK-NEXT: [2110, 2111, 2112, 2113, 2114],
// CHECK-NEXT: [2120, 2121, 2122, 2123, 2124],
// CHECK-NEXT: [2130, 2131, 2132, 2133, 2134]]]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %k5 = arith.constant 5 : i32
  %k10 = arith.constant 10 : i32
  %k100 = arith.constant 100 : i32
  %k1000 = arith.constant 1000 : i32
  // Sizes go through memory so that they stay dynamic.
  %cell = memref.alloc() : memref<4xindex>
  memref.store %c2, %cell[%c0] : memref<4xindex>
  memref.store %c3, %cell[%c1] : memref<4xindex>
  memref.store %c4, %cell[%c2] : memref<4xindex>
  memref.store %c5, %cell[%c3] : memref<4xindex>
  %d0 = memref.load %cell[%c0] : memref<4xindex>
  %d1 = memref.load %cell[%c1] : memref<4xindex>
  %d2 = memref.load %cell[%c2] : memref<4xindex>
  %d3 = memref.load %cell[%c3] : memref<4xindex>

  // Rank 3, sizes 3 x 4 x 5: a[i][j][k] = 100 i + 10 j + k, out = 2 a + 1.
  %a = memref.alloc(%d1, %d2, %d3) : memref<?x?x?xf32>
  %o3 = memref.alloc(%d1, %d2, %d3) : memref<?x?x?xf32>
  scf.for %i = %c0 to %d1 step %c1 {
    scf.for %j = %c0 to %d2 step %c1 {
      scf.for %k = %c0 to %d3 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %kk = arith.index_cast %k : index to i32
        %t0 = arith.muli %ii, %k100 : i32
        %t1 = arith.muli %jj, %k10 : i32
        %t2 = arith.addi %t0, %t1 : i32
        %t3 = arith.addi %t2, %kk : i32
        %f = arith.sitofp %t3 : i32 to f32
        memref.store %f, %a[%i, %j, %k] : memref<?x?x?xf32>
      }
    }
  }
  // Threads: x over k (8 >= 5), y over j (4); blocks: z over i.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %d1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %nj = memref.dim %a, %k1 : memref<?x?x?xf32>
    %nk = memref.dim %a, %k2 : memref<?x?x?xf32>
    %okj = arith.cmpi ult, %ty, %nj : index
    %okk = arith.cmpi ult, %tx, %nk : index
    %ok = arith.andi %okj, %okk : i1
    scf.if %ok {
      %v = memref.load %a[%bz, %ty, %tx] : memref<?x?x?xf32>
      %v2 = arith.mulf %v, %two : f32
      %r = arith.addf %v2, %one : f32
      memref.store %r, %o3[%bz, %ty, %tx] : memref<?x?x?xf32>
    }
    gpu.terminator
  }
  %u3 = memref.cast %o3 : memref<?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()

  // Rank 4, NCHW 2 x 3 x 4 x 5: act[n][c][h][w] = 100 n + 10 h + w,
  // bias[c] = 1000 c, act += bias[c] in place.
  %act = memref.alloc(%d0, %d1, %d2, %d3) : memref<?x?x?x?xf32>
  %bias = memref.alloc(%d1) : memref<?xf32>
  scf.for %c = %c0 to %d1 step %c1 {
    %ci = arith.index_cast %c : index to i32
    %bv = arith.muli %ci, %k1000 : i32
    %bf = arith.sitofp %bv : i32 to f32
    memref.store %bf, %bias[%c] : memref<?xf32>
  }
  scf.for %n = %c0 to %d0 step %c1 {
    scf.for %c = %c0 to %d1 step %c1 {
      scf.for %h = %c0 to %d2 step %c1 {
        scf.for %w = %c0 to %d3 step %c1 {
          %ni = arith.index_cast %n : index to i32
          %hi = arith.index_cast %h : index to i32
          %wi = arith.index_cast %w : index to i32
          %t0 = arith.muli %ni, %k100 : i32
          %t1 = arith.muli %hi, %k10 : i32
          %t2 = arith.addi %t0, %t1 : i32
          %t3 = arith.addi %t2, %wi : i32
          %f = arith.sitofp %t3 : i32 to f32
          memref.store %f, %act[%n, %c, %h, %w] : memref<?x?x?x?xf32>
        }
      }
    }
  }
  // Threads: x over w (8 >= 5), y over h (4); blocks: z over (n, c) pairs.
  %pairs = arith.muli %d0, %d1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %pairs)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c1) {
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %nc = memref.dim %act, %k1 : memref<?x?x?x?xf32>
    %nh = memref.dim %act, %k2 : memref<?x?x?x?xf32>
    %nw = memref.dim %act, %k3 : memref<?x?x?x?xf32>
    %img = arith.divui %bz, %nc : index
    %ch = arith.remui %bz, %nc : index
    %okh = arith.cmpi ult, %ty, %nh : index
    %okw = arith.cmpi ult, %tx, %nw : index
    %ok = arith.andi %okh, %okw : i1
    scf.if %ok {
      %v = memref.load %act[%img, %ch, %ty, %tx] : memref<?x?x?x?xf32>
      %b = memref.load %bias[%ch] : memref<?xf32>
      %s = arith.addf %v, %b : f32
      memref.store %s, %act[%img, %ch, %ty, %tx] : memref<?x?x?x?xf32>
    }
    gpu.terminator
  }
  %u4 = memref.cast %act : memref<?x?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?x?xf32>
  memref.dealloc %o3 : memref<?x?x?xf32>
  memref.dealloc %act : memref<?x?x?x?xf32>
  memref.dealloc %bias : memref<?xf32>
  memref.dealloc %cell : memref<4xindex>
  return
}
