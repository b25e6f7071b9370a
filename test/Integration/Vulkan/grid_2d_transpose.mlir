// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// 2-D grid: transposes a 12 x 20 matrix with 3 x 3 blocks of 8 x 4 threads (bounds checks in x and y).

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [20, 12] strides = [12, 1] data =
// CHECK-NEXT: {{\[\[}}0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100],
// CHECK-NEXT: [1, 101, 201, 301, 401, 501, 601, 701, 801, 901, 1001, 1101],
// CHECK-NEXT: [2, 102, 202, 302, 402, 502, 602, 702, 802, 902, 1002, 1102],
// CHECK-NEXT: [3, 103, 203, 303, 403, 503, 603, 703, 803, 903, 1003, 1103],
// CHECK-NEXT: [4, 104, 204, 304, 404, 504, 604, 704, 804, 904, 1004, 1104],
// CHECK-NEXT: [5, 105, 205, 305, 405, 505, 605, 705, 805, 905, 1005, 1105],
// CHECK-NEXT: [6, 106, 206, 306, 406, 506, 606, 706, 806, 906, 1006, 1106],
// CHECK-NEXT: [7, 107, 207, 307, 407, 507, 607, 707, 807, 907, 1007, 1107],
// CHECK-NEXT: [8, 108, 208, 308, 408, 508, 608, 708, 808, 908, 1008, 1108],
// CHECK-NEXT: [9, 109, 209, 309, 409, 509, 609, 709, 809, 909, 1009, 1109],
// CHECK-NEXT: [10, 110, 210, 310, 410, 510, 610, 710, 810, 910, 1010, 1110],
// CHECK-NEXT: [11, 111, 211, 311, 411, 511, 611, 711, 811, 911, 1011, 1111],
// CHECK-NEXT: [12, 112, 212, 312, 412, 512, 612, 712, 812, 912, 1012, 1112],
// CHECK-NEXT: [13, 113, 213, 313, 413, 513, 613, 713, 813, 913, 1013, 1113],
// CHECK-NEXT: [14, 114, 214, 314, 414, 514, 614, 714, 814, 914, 1014, 1114],
// CHECK-NEXT: [15, 115, 215, 315, 415, 515, 615, 715, 815, 915, 1015, 1115],
// CHECK-NEXT: [16, 116, 216, 316, 416, 516, 616, 716, 816, 916, 1016, 1116],
// CHECK-NEXT: [17, 117, 217, 317, 417, 517, 617, 717, 817, 917, 1017, 1117],
// CHECK-NEXT: [18, 118, 218, 318, 418, 518, 618, 718, 818, 918, 1018, 1118],
// CHECK-NEXT: [19, 119, 219, 319, 419, 519, 619, 719, 819, 919, 1019, 1119]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c20 = arith.constant 20 : index
  %k100 = arith.constant 100 : i32
  %in = memref.alloc() : memref<12x20xf32>
  %out = memref.alloc() : memref<20x12xf32>
  // in[r][c] = 100 r + c.
  scf.for %r = %c0 to %c12 step %c1 {
    scf.for %c = %c0 to %c20 step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %h = arith.muli %ri, %k100 : i32
      %v = arith.addi %h, %ci : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %in[%r, %c] : memref<12x20xf32>
    }
  }
  // 3 x 3 blocks of 8 x 4 threads: x covers the 20 columns (24), y the 12 rows.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c3, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c1) {
    %col0 = arith.muli %bx, %sx : index
    %col = arith.addi %col0, %tx : index
    %row0 = arith.muli %by, %sy : index
    %row = arith.addi %row0, %ty : index
    %okc = arith.cmpi ult, %col, %c20 : index
    %okr = arith.cmpi ult, %row, %c12 : index
    %ok = arith.andi %okc, %okr : i1
    scf.if %ok {
      %v = memref.load %in[%row, %col] : memref<12x20xf32>
      memref.store %v, %out[%col, %row] : memref<20x12xf32>
    }
    gpu.terminator
  }
  %u = memref.cast %out : memref<20x12xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<12x20xf32>
  memref.dealloc %out : memref<20x12xf32>
  return
}
