// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Strided memref.subview kernel arguments: a matrix column, a 2-D window with a run-time offset, a window with strides [16, 2].

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 3 sizes = [8] strides = [8] data =
// CHECK-NEXT: [1003, 1011, -1019, -1027, -1035, 1043, 1051, 1059]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 17 sizes = [3, 4] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}-17, -18, -1019, -20],
// CHECK-NEXT: [-25, -26, -1027, -28],
// CHECK-NEXT: [-33, -34, -1035, -36]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 8 sizes = [3, 4] strides = [16, 2] data =
// CHECK-NEXT: {{\[\[}}0, 1, 2, 3],
// CHECK-NEXT: [100, 101, 102, 103],
// CHECK-NEXT: [200, 201, 202, 203]]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %k8 = arith.constant 8 : i32
  %k0 = arith.constant 0 : i32
  %m = memref.alloc() : memref<8x8xf32>
  %n = memref.alloc() : memref<8x8xi32>
  // m[r][c] = 8 r + c; n is all 0.
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c8 step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %t = arith.muli %ri, %k8 : i32
      %v = arith.addi %t, %ci : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %m[%r, %c] : memref<8x8xf32>
      memref.store %k0, %n[%r, %c] : memref<8x8xi32>
    }
  }
  // Kernel 1: adds 1000 to column 3 (a static strided subview, stride 8).
  %col = memref.subview %m[0, 3] [8, 1] [1, 1]
      : memref<8x8xf32> to memref<8xf32, strided<[8], offset: 3>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %k1000 = arith.constant 1000.0 : f32
    %v = memref.load %col[%tx] : memref<8xf32, strided<[8], offset: 3>>
    %a = arith.addf %v, %k1000 : f32
    memref.store %a, %col[%tx] : memref<8xf32, strided<[8], offset: 3>>
    gpu.terminator
  }
  // Kernel 2: negates the 3 x 4 window at rows 2..4, columns 1..4 (offset
  // known only at run time; it overlaps column 3).
  %cell = memref.alloc() : memref<2xindex>
  memref.store %c2, %cell[%c0] : memref<2xindex>
  memref.store %c1, %cell[%c1] : memref<2xindex>
  %r0 = memref.load %cell[%c0] : memref<2xindex>
  %q0 = memref.load %cell[%c1] : memref<2xindex>
  %win = memref.subview %m[%r0, %q0] [3, 4] [1, 1]
      : memref<8x8xf32> to memref<3x4xf32, strided<[8, 1], offset: ?>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c3, %sz = %c1) {
    %v = memref.load %win[%ty, %tx] : memref<3x4xf32, strided<[8, 1], offset: ?>>
    %ng = arith.negf %v : f32
    memref.store %ng, %win[%ty, %tx] : memref<3x4xf32, strided<[8, 1], offset: ?>>
    gpu.terminator
  }
  // Kernel 3: writes 100 * r + c into every other element of every other
  // row of n (strides [16, 2]), starting at row 1, column 0.
  %even = memref.subview %n[1, 0] [3, 4] [2, 2]
      : memref<8x8xi32> to memref<3x4xi32, strided<[16, 2], offset: 8>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c3, %sz = %c1) {
    %k100 = arith.constant 100 : i32
    %r = arith.index_cast %ty : index to i32
    %c = arith.index_cast %tx : index to i32
    %h = arith.muli %r, %k100 : i32
    %v = arith.addi %h, %c : i32
    memref.store %v, %even[%ty, %tx] : memref<3x4xi32, strided<[16, 2], offset: 8>>
    gpu.terminator
  }
  %u1 = memref.cast %col : memref<8xf32, strided<[8], offset: 3>> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %win : memref<3x4xf32, strided<[8, 1], offset: ?>> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %u3 = memref.cast %even : memref<3x4xi32, strided<[16, 2], offset: 8>> to memref<*xi32>
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  memref.dealloc %m : memref<8x8xf32>
  memref.dealloc %n : memref<8x8xi32>
  memref.dealloc %cell : memref<2xindex>
  return
}
