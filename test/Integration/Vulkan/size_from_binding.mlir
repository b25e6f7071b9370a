// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref.dim of a one-dimensional memref<?xT> is read from its binding
// (OpArrayLength, docs/abi.md "Sizes read from the binding"): the runtime
// binds such a memref from its first element to its last byte, so the
// length is the memref's size, whatever the allocation behind it holds;
// an empty memref reads 0 (its binding is one byte long), and no
// invocation runs the guarded store.

// An empty memref: every invocation sees size 0 and writes 2.
// CHECK: [0, 0, 0, 0]
// CHECK: [2, 2, 2, 2]
// Three elements of an eight-element allocation: size 3.
// CHECK: [3, 3, 3, 3]
// CHECK: [1, 1, 1, 2]
// Five i32 elements.
// CHECK: [5, 5, 5, 5]
// CHECK: [1, 1, 1, 1]

func.func private @printMemrefI32(memref<*xi32>)

func.func @sizes(%a: memref<?xf32>, %count: memref<4xi32>, %flag: memref<4xi32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %n = memref.dim %a, %k0 : memref<?xf32>
    %ni = arith.index_cast %n : index to i32
    memref.store %ni, %count[%tx] : memref<4xi32>
    %in = arith.cmpi ult, %tx, %n : index
    %f = arith.select %in, %one, %two : i32
    memref.store %f, %flag[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}

func.func @sizesI32(%a: memref<?xi32>, %count: memref<4xi32>, %flag: memref<4xi32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %n = memref.dim %a, %k0 : memref<?xi32>
    %ni = arith.index_cast %n : index to i32
    memref.store %ni, %count[%tx] : memref<4xi32>
    %in = arith.cmpi ult, %tx, %n : index
    %f = arith.select %in, %one, %two : i32
    memref.store %f, %flag[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %count = memref.alloc() : memref<4xi32>
  %flag = memref.alloc() : memref<4xi32>
  %pc = memref.cast %count : memref<4xi32> to memref<*xi32>
  %pf = memref.cast %flag : memref<4xi32> to memref<*xi32>
  // The sizes go through memory so that no pass folds them.
  %cell = memref.alloc() : memref<1xindex>
  memref.store %c0, %cell[%c0] : memref<1xindex>
  %zero = memref.load %cell[%c0] : memref<1xindex>

  %empty = memref.alloc(%zero) : memref<?xf32>
  call @sizes(%empty, %count, %flag) : (memref<?xf32>, memref<4xi32>, memref<4xi32>) -> ()
  call @printMemrefI32(%pc) : (memref<*xi32>) -> ()
  call @printMemrefI32(%pf) : (memref<*xi32>) -> ()

  %big = memref.alloc() : memref<8xf32>
  %three = memref.reinterpret_cast %big to offset: [0], sizes: [3], strides: [1] : memref<8xf32> to memref<3xf32>
  %part = memref.cast %three : memref<3xf32> to memref<?xf32>
  call @sizes(%part, %count, %flag) : (memref<?xf32>, memref<4xi32>, memref<4xi32>) -> ()
  call @printMemrefI32(%pc) : (memref<*xi32>) -> ()
  call @printMemrefI32(%pf) : (memref<*xi32>) -> ()

  %c5 = arith.constant 5 : index
  memref.store %c5, %cell[%c0] : memref<1xindex>
  %five = memref.load %cell[%c0] : memref<1xindex>
  %ints = memref.alloc(%five) : memref<?xi32>
  call @sizesI32(%ints, %count, %flag) : (memref<?xi32>, memref<4xi32>, memref<4xi32>) -> ()
  call @printMemrefI32(%pc) : (memref<*xi32>) -> ()
  call @printMemrefI32(%pf) : (memref<*xi32>) -> ()
  return
}
