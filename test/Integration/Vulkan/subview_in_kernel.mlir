// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref.subview inside a kernel: rank-reducing row subviews with strides 1 and 2 of a static memref, a window of a dynamic one.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}4, 7, 10, 13, 16, 19, 22, 25],
// CHECK-NEXT: [36, 39, 42, 45, 48, 51, 54, 57],
// CHECK-NEXT: [68, 71, 74, 77, 80, 83, 86, 89],
// CHECK-NEXT: [100, 103, 106, 109, 112, 115, 118, 121],
// CHECK-NEXT: [132, 135, 138, 141, 144, 147, 150, 153],
// CHECK-NEXT: [164, 167, 170, 173, 176, 179, 182, 185],
// CHECK-NEXT: [196, 199, 202, 205, 208, 211, 214, 217],
// CHECK-NEXT: [228, 231, 234, 237, 240, 243, 246, 249]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}18, 19, 20, 21],
// CHECK-NEXT: [34, 35, 36, 37],
// CHECK-NEXT: [50, 51, 52, 53],
// CHECK-NEXT: [66, 67, 68, 69]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %k16 = arith.constant 16 : i32
  %in = memref.alloc() : memref<8x16xf32>
  %out = memref.alloc() : memref<8x8xf32>
  %out2 = memref.alloc() : memref<4x4xf32>
  // in[r][c] = 16 r + c.
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c16 step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %t = arith.muli %ri, %k16 : i32
      %v = arith.addi %t, %ci : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %in[%r, %c] : memref<8x16xf32>
    }
  }
  // Block r takes rank-reducing subviews of row r: columns 4..11, the even
  // columns 0, 2, ..., 14, and row r of out; out[r][t] = in[r][4 + t] + in[r][2 t].
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %mid = memref.subview %in[%bx, 4] [1, 8] [1, 1]
        : memref<8x16xf32> to memref<8xf32, strided<[1], offset: ?>>
    %evens = memref.subview %in[%bx, 0] [1, 8] [1, 2]
        : memref<8x16xf32> to memref<8xf32, strided<[2], offset: ?>>
    %orow = memref.subview %out[%bx, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %a = memref.load %mid[%tx] : memref<8xf32, strided<[1], offset: ?>>
    %b = memref.load %evens[%tx] : memref<8xf32, strided<[2], offset: ?>>
    %s = arith.addf %a, %b : f32
    memref.store %s, %orow[%tx] : memref<8xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  // The same on a dynamic memref: the 4 x 4 window at rows 1..4, columns 2..5.
  %dyn = memref.cast %in : memref<8x16xf32> to memref<?x?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
    %win = memref.subview %dyn[1, 2] [4, 4] [1, 1]
        : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
    %v = memref.load %win[%ty, %tx] : memref<4x4xf32, strided<[?, 1], offset: ?>>
    memref.store %v, %out2[%ty, %tx] : memref<4x4xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u2 = memref.cast %out2 : memref<4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<8x16xf32>
  memref.dealloc %out : memref<8x8xf32>
  memref.dealloc %out2 : memref<4x4xf32>
  return
}
