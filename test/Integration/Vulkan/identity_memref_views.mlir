// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// A memref<?xf32> (identity layout) is bound at its first element and the
// kernel adds no offset: here a memref.view 16 bytes into a byte buffer. A
// view with a non-identity layout (a subview starting one element in, at an
// address no device aligns a storage buffer to) still reads its offset from
// the push constants, and the runtime binds it below that element.

// view[i] = 10 i, written through the view: floats 4 to 9 of the buffer.
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [12] strides = [1] data =
// CHECK-NEXT: [0, 0, 0, 0, 0, 10, 20, 30, 40, 50, 0, 0]
// shifted[i] = view[i] + 1 for the subview view[1..5]: 11, 21, 31, 41, 51.
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [11, 21, 31, 41, 51]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %bytes = memref.alloc() {alignment = 64} : memref<48xi8>
  %all = memref.view %bytes[%c0][] : memref<48xi8> to memref<12xf32>
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %zero, %all[%i] : memref<12xf32>
  }
  // Floats 4 to 9: 16 bytes in.
  %view = memref.view %bytes[%c16][%c6] : memref<48xi8> to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %ten = arith.constant 10.0 : f32
    %ti = arith.index_cast %tx : index to i32
    %tf = arith.sitofp %ti : i32 to f32
    %v = arith.mulf %tf, %ten : f32
    memref.store %v, %view[%tx] : memref<?xf32>
    gpu.terminator
  }
  %c5 = arith.constant 5 : index
  %sub = memref.subview %view[1] [%c5] [1]
      : memref<?xf32> to memref<?xf32, strided<[1], offset: 1>>
  %shifted = memref.alloc(%c5) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    %v = memref.load %sub[%tx] : memref<?xf32, strided<[1], offset: 1>>
    %w = arith.addf %v, %one : f32
    memref.store %w, %shifted[%tx] : memref<?xf32>
    gpu.terminator
  }
  %u = memref.cast %all : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %s = memref.cast %shifted : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%s) : (memref<*xf32>) -> ()
  memref.dealloc %shifted : memref<?xf32>
  memref.dealloc %bytes : memref<48xi8>
  return
}
