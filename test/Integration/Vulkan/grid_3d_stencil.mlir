// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// 3-D grid: 7-point Laplacian on a 4 x 5 x 6 volume with 2 x 2 x 2 blocks of 4 x 4 x 2 threads; boundary copied.

// CHECK: Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [4, 5, 6] strides = [30, 6, 1] data =
// CHECK-NEXT: {{\[\[\[}}0, 7, 14, 4, 11, 1],
// CHECK-NEXT: [13, 3, 10, 0, 7, 14],
// CHECK-NEXT: [9, 16, 6, 13, 3, 10],
// CHECK-NEXT: [5, 12, 2, 9, 16, 6],
// CHECK-NEXT: [1, 8, 15, 5, 12, 2]],
// CHECK-NEXT: {{\[\[}}12, 2, 9, 16, 6, 13],
// CHECK-NEXT: [8, -51, 17, -34, 51, 9],
// CHECK-NEXT: [4, -17, 51, 0, -51, 5],
// CHECK-NEXT: [0, 0, -51, 34, -17, 1],
// CHECK-NEXT: [13, 3, 10, 0, 7, 14]],
// CHECK-NEXT: {{\[\[}}7, 14, 4, 11, 1, 8],
// CHECK-NEXT: [3, -17, 51, 0, -51, 4],
// CHECK-NEXT: [16, 17, -51, 51, -17, 0],
// CHECK-NEXT: [12, 51, 0, -51, 17, 13],
// CHECK-NEXT: [8, 15, 5, 12, 2, 9]],
// CHECK-NEXT: {{\[\[}}2, 9, 16, 6, 13, 3],
// CHECK-NEXT: [15, 5, 12, 2, 9, 16],
// CHECK-NEXT: [11, 1, 8, 15, 5, 12],
// CHECK-NEXT: [7, 14, 4, 11, 1, 8],
// CHECK-NEXT: [3, 10, 0, 7, 14, 4]]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %k7 = arith.constant 7 : i32
  %k13 = arith.constant 13 : i32
  %k29 = arith.constant 29 : i32
  %k17 = arith.constant 17 : i32
  %in = memref.alloc() : memref<4x5x6xf32>
  %out = memref.alloc() : memref<4x5x6xf32>
  // in[z][y][x] = (7x + 13y + 29z) mod 17.
  scf.for %z = %c0 to %c4 step %c1 {
    scf.for %y = %c0 to %c5 step %c1 {
      scf.for %x = %c0 to %c6 step %c1 {
        %zi = arith.index_cast %z : index to i32
        %yi = arith.index_cast %y : index to i32
        %xi = arith.index_cast %x : index to i32
        %a = arith.muli %xi, %k7 : i32
        %b = arith.muli %yi, %k13 : i32
        %c = arith.muli %zi, %k29 : i32
        %ab = arith.addi %a, %b : i32
        %abc = arith.addi %ab, %c : i32
        %m = arith.remui %abc, %k17 : i32
        %f = arith.sitofp %m : i32 to f32
        memref.store %f, %in[%z, %y, %x] : memref<4x5x6xf32>
      }
    }
  }
  // 2 x 2 x 2 blocks of 4 x 4 x 2 threads cover x < 8, y < 8, z < 4.
  // Interior points get the 7-point Laplacian, boundary points a copy.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c2)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c2) {
    %six = arith.constant 6.0 : f32
    %x0 = arith.muli %bx, %sx : index
    %x = arith.addi %x0, %tx : index
    %y0 = arith.muli %by, %sy : index
    %y = arith.addi %y0, %ty : index
    %z0 = arith.muli %bz, %sz : index
    %z = arith.addi %z0, %tz : index
    %okx = arith.cmpi ult, %x, %c6 : index
    %oky = arith.cmpi ult, %y, %c5 : index
    %okz = arith.cmpi ult, %z, %c4 : index
    %okxy = arith.andi %okx, %oky : i1
    %ok = arith.andi %okxy, %okz : i1
    scf.if %ok {
      %xm = arith.subi %x, %c1 : index
      %xp = arith.addi %x, %c1 : index
      %ym = arith.subi %y, %c1 : index
      %yp = arith.addi %y, %c1 : index
      %zm = arith.subi %z, %c1 : index
      %zp = arith.addi %z, %c1 : index
      %ix0 = arith.cmpi ugt, %x, %c0 : index
      %ix1 = arith.cmpi ult, %xp, %c6 : index
      %iy0 = arith.cmpi ugt, %y, %c0 : index
      %iy1 = arith.cmpi ult, %yp, %c5 : index
      %iz0 = arith.cmpi ugt, %z, %c0 : index
      %iz1 = arith.cmpi ult, %zp, %c4 : index
      %i0 = arith.andi %ix0, %ix1 : i1
      %i1 = arith.andi %iy0, %iy1 : i1
      %i2 = arith.andi %iz0, %iz1 : i1
      %i01 = arith.andi %i0, %i1 : i1
      %interior = arith.andi %i01, %i2 : i1
      %center = memref.load %in[%z, %y, %x] : memref<4x5x6xf32>
      %r = scf.if %interior -> (f32) {
        %v0 = memref.load %in[%z, %y, %xm] : memref<4x5x6xf32>
        %v1 = memref.load %in[%z, %y, %xp] : memref<4x5x6xf32>
        %v2 = memref.load %in[%z, %ym, %x] : memref<4x5x6xf32>
        %v3 = memref.load %in[%z, %yp, %x] : memref<4x5x6xf32>
        %v4 = memref.load %in[%zm, %y, %x] : memref<4x5x6xf32>
        %v5 = memref.load %in[%zp, %y, %x] : memref<4x5x6xf32>
        %s0 = arith.addf %v0, %v1 : f32
        %s1 = arith.addf %s0, %v2 : f32
        %s2 = arith.addf %s1, %v3 : f32
        %s3 = arith.addf %s2, %v4 : f32
        %s4 = arith.addf %s3, %v5 : f32
        %c6c = arith.mulf %center, %six : f32
        %lap = arith.subf %s4, %c6c : f32
        scf.yield %lap : f32
      } else {
        scf.yield %center : f32
      }
      memref.store %r, %out[%z, %y, %x] : memref<4x5x6xf32>
    }
    gpu.terminator
  }
  %u = memref.cast %out : memref<4x5x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<4x5x6xf32>
  memref.dealloc %out : memref<4x5x6xf32>
  return
}
