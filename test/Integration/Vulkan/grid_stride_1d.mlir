// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// 1-D grid-stride loop: 192 threads update each of 1000 elements exactly once (checked by the sum and both ends).

// CHECK: 1007000
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [8, 10, 12, 14, 16, 18, 20, 22]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 992 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1992, 1994, 1996, 1998, 2000, 2002, 2004, 2006]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 1000 : index
  %seven = arith.constant 7 : i32
  %out = memref.alloc() : memref<1000xi32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %seven, %out[%i] : memref<1000xi32>
  }
  // 3 x 64 = 192 threads cover 1000 elements; each adds 2i + 1 to out[i]
  // once, so an element visited twice or never shows up in the sum.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %base = arith.muli %bx, %sx : index
    %gid = arith.addi %base, %tx : index
    %stride = arith.muli %gx, %sx : index
    scf.for %i = %gid to %n step %stride {
      %v = memref.load %out[%i] : memref<1000xi32>
      %ii = arith.index_cast %i : index to i32
      %d = arith.muli %ii, %two : i32
      %t = arith.addi %d, %one : i32
      %r = arith.addi %v, %t : i32
      memref.store %r, %out[%i] : memref<1000xi32>
    }
    gpu.terminator
  }
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %out[%i] : memref<1000xi32>
    %v64 = arith.extsi %v : i32 to i64
    %a = arith.addi %acc, %v64 : i64
    scf.yield %a : i64
  }
  call @printI64(%sum) : (i64) -> ()
  call @printNewline() : () -> ()
  %head = memref.subview %out[0] [8] [1] : memref<1000xi32> to memref<8xi32, strided<[1]>>
  %uh = memref.cast %head : memref<8xi32, strided<[1]>> to memref<*xi32>
  call @printMemrefI32(%uh) : (memref<*xi32>) -> ()
  %tail = memref.subview %out[992] [8] [1] : memref<1000xi32> to memref<8xi32, strided<[1], offset: 992>>
  %ut = memref.cast %tail : memref<8xi32, strided<[1], offset: 992>> to memref<*xi32>
  call @printMemrefI32(%ut) : (memref<*xi32>) -> ()
  memref.dealloc %out : memref<1000xi32>
  return
}
