// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// i8 buffers: wrapping add, signed max and arithmetic shift right of negative and positive bytes.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}124, -126, -120, -114, -108, -102, -96, -90, -84, -78, -72, -66, -60, -54, -48, -42, -36, -30, -24, -18, -12, -6, 0, 6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 66, 72, 78, 84, 90, 96, 102, 108, 114, 120, 126, -124, -118, -112, -106, -100, -94, -88, -82, -76, -70, -64, -58, -52, -46, -40, -34, -28, -22, -16, -10],
// CHECK-NEXT: [-32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100, 105, 110, 115, 120, 125, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31],
// CHECK-NEXT: [-25, -24, -23, -22, -20, -19, -18, -17, -15, -14, -13, -12, -10, -9, -8, -7, -5, -4, -3, -2, 0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 15, 16, 17, 18, 20, 21, 22, 23, 25, 26, 27, 28, 30, 31, -32, -31, -29, -28, -27, -26, -24, -23, -22, -21, -19, -18, -17, -16, -14, -13, -12, -11]]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %k5 = arith.constant 5 : i32
  %k100 = arith.constant 100 : i32
  %k32 = arith.constant 32 : i32
  %x = memref.alloc() : memref<64xi8>
  %y = memref.alloc() : memref<64xi8>
  %sum = memref.alloc() : memref<64xi8>
  %max = memref.alloc() : memref<64xi8>
  %shr = memref.alloc() : memref<64xi8>
  // x[i] = trunc(i * 5 - 100) (wraps past 127), y[i] = i - 32.
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %ii, %k5 : i32
    %xv = arith.subi %m, %k100 : i32
    %yv = arith.subi %ii, %k32 : i32
    %x8 = arith.trunci %xv : i32 to i8
    %y8 = arith.trunci %yv : i32 to i8
    memref.store %x8, %x[%i] : memref<64xi8>
    memref.store %y8, %y[%i] : memref<64xi8>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %two = arith.constant 2 : i8
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %a = memref.load %x[%i] : memref<64xi8>
    %b = memref.load %y[%i] : memref<64xi8>
    %s = arith.addi %a, %b : i8
    %m = arith.maxsi %a, %b : i8
    %r = arith.shrsi %a, %two : i8
    memref.store %s, %sum[%i] : memref<64xi8>
    memref.store %m, %max[%i] : memref<64xi8>
    memref.store %r, %shr[%i] : memref<64xi8>
    gpu.terminator
  }
  // Sign-extend to i32 on the host for printing: rows sum, max, shr.
  %out = memref.alloc() : memref<3x64xi32>
  scf.for %i = %c0 to %c64 step %c1 {
    %s = memref.load %sum[%i] : memref<64xi8>
    %m = memref.load %max[%i] : memref<64xi8>
    %r = memref.load %shr[%i] : memref<64xi8>
    %s32 = arith.extsi %s : i8 to i32
    %m32 = arith.extsi %m : i8 to i32
    %r32 = arith.extsi %r : i8 to i32
    memref.store %s32, %out[%c0, %i] : memref<3x64xi32>
    memref.store %m32, %out[%c1, %i] : memref<3x64xi32>
    memref.store %r32, %out[%c2, %i] : memref<3x64xi32>
  }
  %u = memref.cast %out : memref<3x64xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %x : memref<64xi8>
  memref.dealloc %y : memref<64xi8>
  memref.dealloc %sum : memref<64xi8>
  memref.dealloc %max : memref<64xi8>
  memref.dealloc %shr : memref<64xi8>
  memref.dealloc %out : memref<3x64xi32>
  return
}
