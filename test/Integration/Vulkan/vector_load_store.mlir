// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// vector.load / vector.store of vector<4xf32> from memref<?xf32>, vector arithmetic and vector.shuffle.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5, 6, 5.5, 5, 4.5, 4, 3.5, 3, 2.5, 2, 1.5, 1, 0.5, 0, -0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4, -4.5, -5, -5.5]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [8.5, 9, 9.5, 10, 6.5, 7, 7.5, 8, 4.5, 5, 5.5, 6, 2.5, 3, 3.5, 4, 0.5, 1, 1.5, 2, -1.5, -1, -0.5, 0, -3.5, -3, -2.5, -2, -5.5, -5, -4.5, -4]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %quarter = arith.constant 0.25 : f32
  %ten = arith.constant 10.0 : f32
  %cell = memref.alloc() : memref<1xindex>
  memref.store %c32, %cell[%c0] : memref<1xindex>
  %n = memref.load %cell[%c0] : memref<1xindex>
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  %rev = memref.alloc(%n) : memref<?xf32>
  // x[i] = i / 4, y[i] = 10 - i.
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %xv = arith.mulf %f, %quarter : f32
    %yv = arith.subf %ten, %f : f32
    memref.store %xv, %x[%i] : memref<?xf32>
    memref.store %yv, %y[%i] : memref<?xf32>
  }
  // 2 blocks of 4 threads, 4 elements each: out = 2 x + y with vector<4xf32>
  // loads and stores; rev holds each group of 4 in reverse order.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %k4 = arith.constant 4 : index
    %two = arith.constant dense<2.0> : vector<4xf32>
    %base = arith.muli %bx, %sx : index
    %t = arith.addi %base, %tx : index
    %i = arith.muli %t, %k4 : index
    %xv = vector.load %x[%i] : memref<?xf32>, vector<4xf32>
    %yv = vector.load %y[%i] : memref<?xf32>, vector<4xf32>
    %x2 = arith.mulf %xv, %two : vector<4xf32>
    %r = arith.addf %x2, %yv : vector<4xf32>
    vector.store %r, %out[%i] : memref<?xf32>, vector<4xf32>
    %rr = vector.shuffle %r, %r [3, 2, 1, 0] : vector<4xf32>, vector<4xf32>
    vector.store %rr, %rev[%i] : memref<?xf32>, vector<4xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ur = memref.cast %rev : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %y : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  memref.dealloc %rev : memref<?xf32>
  memref.dealloc %cell : memref<1xindex>
  return
}
