// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref.atomic_rmw addi on i32: a 16-bin histogram of 1000 values from 1024 threads.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [71, 71, 72, 36, 72, 71, 70, 36, 72, 72, 71, 35, 71, 72, 72, 36]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 1000 : index
  %k0 = arith.constant 0 : i32
  %k5 = arith.constant 5 : i32
  %k7 = arith.constant 7 : i32
  %k16 = arith.constant 16 : i32
  %data = memref.alloc() : memref<1000xi32>
  %bins = memref.alloc() : memref<16xi32>
  // data[i] = (5 i + i / 7) mod 16; bins start at 0.
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %a = arith.muli %ii, %k5 : i32
    %b = arith.divui %ii, %k7 : i32
    %s = arith.addi %a, %b : i32
    %v = arith.remui %s, %k16 : i32
    memref.store %v, %data[%i] : memref<1000xi32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %k0, %bins[%i] : memref<16xi32>
  }
  // 16 x 64 threads, 1000 of them bump bins[data[i]] with an atomic add.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %v = memref.load %data[%i] : memref<1000xi32>
      %bin = arith.index_cast %v : i32 to index
      %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<16xi32>) -> i32
    }
    gpu.terminator
  }
  %u = memref.cast %bins : memref<16xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %data : memref<1000xi32>
  memref.dealloc %bins : memref<16xi32>
  return
}
