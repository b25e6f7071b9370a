// RUN: kiln-vulkan-runner %s --buffer-device-address=always --validate | FileCheck %s
// Every memref argument bound by buffer device address: a static buffer
// (host memory), a gpu.alloc device buffer, a strided 2-D view with a
// run-time offset (its metadata follows its address in the push constants)
// and an atomic counter, beside scalar arguments.

// CHECK: data =
// CHECK-NEXT: [0,  12,  24,  36,  48,  60,  72,  84]
// CHECK: data =
// CHECK-NEXT: {{\[}}[0,   0,   0,   0],
// CHECK-NEXT: [0,   11,   12,   13],
// CHECK-NEXT: [0,   21,   22,   23],
// CHECK-NEXT: [0,   0,   0,   0]]
// CHECK: counter 8

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %twelve = arith.constant 12 : i32
  %out = memref.alloc() : memref<8xi32>
  %grid = memref.alloc() : memref<4x4xi32>
  %count = memref.alloc() : memref<1xi32>
  linalg.fill ins(%zero : i32) outs(%grid : memref<4x4xi32>)
  memref.store %zero, %count[%c0] : memref<1xi32>
  // A device buffer, filled by a first kernel.
  %dev = gpu.alloc () : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %dev[%tx] : memref<8xi32>
    gpu.terminator
  }
  // The 2x3 window at (1, 1) of the 4x4 grid, with a run-time offset.
  %cell = memref.alloc() : memref<1xindex>
  memref.store %c1, %cell[%c0] : memref<1xindex>
  %o = memref.load %cell[%c0] : memref<1xindex>
  %window = memref.subview %grid[%o, %o] [2, 3] [1, 1] : memref<4x4xi32> to memref<2x3xi32, strided<[4, 1], offset: ?>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %dev[%tx] : memref<8xi32>
    %w = arith.muli %v, %twelve : i32
    memref.store %w, %out[%tx] : memref<8xi32>
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %count[%c0] : (i32, memref<1xi32>) -> i32
    %in = arith.cmpi ult, %tx, %c3 : index
    scf.if %in {
      %ti = arith.index_cast %tx : index to i32
      %ten = arith.constant 10 : i32
      %r0 = arith.addi %ti, %ten : i32
      %r00 = arith.addi %r0, %one : i32
      %twenty = arith.constant 20 : i32
      %r1 = arith.addi %ti, %twenty : i32
      %r11 = arith.addi %r1, %one : i32
      memref.store %r00, %window[%c0, %tx] : memref<2x3xi32, strided<[4, 1], offset: ?>>
      memref.store %r11, %window[%c1, %tx] : memref<2x3xi32, strided<[4, 1], offset: ?>>
    }
    gpu.terminator
  }
  gpu.dealloc %dev : memref<8xi32>
  %u0 = memref.cast %out : memref<8xi32> to memref<*xi32>
  %u1 = memref.cast %grid : memref<4x4xi32> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  %n = memref.load %count[%c0] : memref<1xi32>
  vector.print str "counter "
  vector.print %n : i32
  return
}
