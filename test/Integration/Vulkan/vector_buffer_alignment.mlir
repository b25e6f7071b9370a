// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Storage buffers read and written as arrays of vectors: a memref<?x?xf32>
// whose vector loads say {alignment = 16} (its row length is a multiple of
// 4), with scalar stores into the same buffer, and a static memref whose
// vector stores are provably aligned. The printed values are those of
// scalar memory.

// m[r][c] = 10 r + c for a 4 x 8 matrix. Invocation (x, y) loads the vector
// at row y, column 4 x, writes its sum into m[y][4 x + 3] (a scalar store
// into the vec4 buffer) and the vector reversed into out[y][4 x ..].
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   2,   6,   4,   5,   6,   22],
// CHECK-NEXT: [10,   11,   12,   46,   14,   15,   16,   62],
// CHECK-NEXT: [20,   21,   22,   86,   24,   25,   26,   102],
// CHECK-NEXT: [30,   31,   32,   126,   34,   35,   36,   142]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}3,   2,   1,   0,   7,   6,   5,   4],
// CHECK-NEXT: [13,   12,   11,   10,   17,   16,   15,   14],
// CHECK-NEXT: [23,   22,   21,   20,   27,   26,   25,   24],
// CHECK-NEXT: [33,   32,   31,   30,   37,   36,   35,   34]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %ten = arith.constant 10.0 : f32
  // The sizes go through memory so that no pass can fold them.
  %cell = memref.alloc() : memref<2xindex>
  memref.store %c4, %cell[%c0] : memref<2xindex>
  memref.store %c8, %cell[%c1] : memref<2xindex>
  %rows = memref.load %cell[%c0] : memref<2xindex>
  %cols = memref.load %cell[%c1] : memref<2xindex>
  %m = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc() : memref<4x8xf32>
  scf.for %r = %c0 to %rows step %c1 {
    scf.for %c = %c0 to %cols step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %cf = arith.sitofp %ci : i32 to f32
      %r10 = arith.mulf %rf, %ten : f32
      %v = arith.addf %r10, %cf : f32
      memref.store %v, %m[%r, %c] : memref<?x?xf32>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c4, %sz = %c1) {
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %col = arith.muli %tx, %k4 : index
    %v = vector.load %m[%ty, %col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
    %sum = vector.reduction <add>, %v : vector<4xf32> into f32
    %last = arith.addi %col, %k3 : index
    %rev = vector.shuffle %v, %v [3, 2, 1, 0] : vector<4xf32>, vector<4xf32>
    vector.store %rev, %out[%ty, %col] : memref<4x8xf32>, vector<4xf32>
    gpu.barrier
    memref.store %sum, %m[%ty, %last] : memref<?x?xf32>
    gpu.terminator
  }
  %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %o = memref.cast %out : memref<4x8xf32> to memref<*xf32>
  call @printMemrefF32(%o) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<?x?xf32>
  memref.dealloc %out : memref<4x8xf32>
  memref.dealloc %cell : memref<2xindex>
  return
}
