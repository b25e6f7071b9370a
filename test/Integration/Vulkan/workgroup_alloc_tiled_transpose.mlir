// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Workgroup memory from memref.alloc in the kernel: 16 x 24 transpose through 8 x 8 tiles with a gpu.barrier.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [24, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500],
// CHECK-NEXT: [1, 101, 201, 301, 401, 501, 601, 701, 801, 901, 1001, 1101, 1201, 1301, 1401, 1501],
// CHECK-NEXT: [2, 102, 202, 302, 402, 502, 602, 702, 802, 902, 1002, 1102, 1202, 1302, 1402, 1502],
// CHECK-NEXT: [3, 103, 203, 303, 403, 503, 603, 703, 803, 903, 1003, 1103, 1203, 1303, 1403, 1503],
// CHECK-NEXT: [4, 104, 204, 304, 404, 504, 604, 704, 804, 904, 1004, 1104, 1204, 1304, 1404, 1504],
// CHECK-NEXT: [5, 105, 205, 305, 405, 505, 605, 705, 805, 905, 1005, 1105, 1205, 1305, 1405, 1505],
// CHECK-NEXT: [6, 106, 206, 306, 406, 506, 606, 706, 806, 906, 1006, 1106, 1206, 1306, 1406, 1506],
// CHECK-NEXT: [7, 107, 207, 307, 407, 507, 607, 707, 807, 907, 1007, 1107, 1207, 1307, 1407, 1507],
// CHECK-NEXT: [8, 108, 208, 308, 408, 508, 608, 708, 808, 908, 1008, 1108, 1208, 1308, 1408, 1508],
// CHECK-NEXT: [9, 109, 209, 309, 409, 509, 609, 709, 809, 909, 1009, 1109, 1209, 1309, 1409, 1509],
// CHECK-NEXT: [10, 110, 210, 310, 410, 510, 610, 710, 810, 910, 1010, 1110, 1210, 1310, 1410, 1510],
// CHECK-NEXT: [11, 111, 211, 311, 411, 511, 611, 711, 811, 911, 1011, 1111, 1211, 1311, 1411, 1511],
// CHECK-NEXT: [12, 112, 212, 312, 412, 512, 612, 712, 812, 912, 1012, 1112, 1212, 1312, 1412, 1512],
// CHECK-NEXT: [13, 113, 213, 313, 413, 513, 613, 713, 813, 913, 1013, 1113, 1213, 1313, 1413, 1513],
// CHECK-NEXT: [14, 114, 214, 314, 414, 514, 614, 714, 814, 914, 1014, 1114, 1214, 1314, 1414, 1514],
// CHECK-NEXT: [15, 115, 215, 315, 415, 515, 615, 715, 815, 915, 1015, 1115, 1215, 1315, 1415, 1515],
// CHECK-NEXT: [16, 116, 216, 316, 416, 516, 616, 716, 816, 916, 1016, 1116, 1216, 1316, 1416, 1516],
// CHECK-NEXT: [17, 117, 217, 317, 417, 517, 617, 717, 817, 917, 1017, 1117, 1217, 1317, 1417, 1517],
// CHECK-NEXT: [18, 118, 218, 318, 418, 518, 618, 718, 818, 918, 1018, 1118, 1218, 1318, 1418, 1518],
// CHECK-NEXT: [19, 119, 219, 319, 419, 519, 619, 719, 819, 919, 1019, 1119, 1219, 1319, 1419, 1519],
// CHECK-NEXT: [20, 120, 220, 320, 420, 520, 620, 720, 820, 920, 1020, 1120, 1220, 1320, 1420, 1520],
// CHECK-NEXT: [21, 121, 221, 321, 421, 521, 621, 721, 821, 921, 1021, 1121, 1221, 1321, 1421, 1521],
// CHECK-NEXT: [22, 122, 222, 322, 422, 522, 622, 722, 822, 922, 1022, 1122, 1222, 1322, 1422, 1522],
// CHECK-NEXT: [23, 123, 223, 323, 423, 523, 623, 723, 823, 923, 1023, 1123, 1223, 1323, 1423, 1523]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %k100 = arith.constant 100 : i32
  %in = memref.alloc() : memref<16x24xf32>
  %out = memref.alloc() : memref<24x16xf32>
  // in[r][c] = 100 r + c.
  scf.for %r = %c0 to %c16 step %c1 {
    scf.for %c = %c0 to %c24 step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %h = arith.muli %ri, %k100 : i32
      %v = arith.addi %h, %ci : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %in[%r, %c] : memref<16x24xf32>
    }
  }
  // 3 x 2 blocks of 8 x 8 threads; each block transposes one 8 x 8 tile
  // through a memref.alloc in workgroup memory.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
    %tile = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
    %col0 = arith.muli %bx, %sx : index
    %row0 = arith.muli %by, %sy : index
    %col = arith.addi %col0, %tx : index
    %row = arith.addi %row0, %ty : index
    %v = memref.load %in[%row, %col] : memref<16x24xf32>
    memref.store %v, %tile[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %orow = arith.addi %col0, %ty : index
    %ocol = arith.addi %row0, %tx : index
    %t = memref.load %tile[%tx, %ty] : memref<8x8xf32, #gpu.address_space<workgroup>>
    memref.store %t, %out[%orow, %ocol] : memref<24x16xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<24x16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<16x24xf32>
  memref.dealloc %out : memref<24x16xf32>
  return
}
