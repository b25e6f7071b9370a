// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// i16 buffers: wrapping add, multiply, arithmetic shift right and signed max
// of values beyond the 8-bit range, widened to i32 on the host to print.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-30200, -29193, -28186, -27179, -26172, -25165, -24158, -23151, -22144, -21137, -20130, -19123, -18116, -17109, -16102, -15095, -14088, -13081, -12074, -11067, -10060, -9053, -8046, -7039, -6032, -5025, -4018, -3011, -2004, -997, 10, 1017, 2024, 3031, 4038, 5045, 6052, 7059, 8066, 9073, 10080, 11087, 12094, 13101, 14108, 15115, 16122, 17129, 18136, 19143, 20150, 21157, 22164, 23171, 24178, 25185, 26192, 27199, 28206, 29213, 30220, 31227, 32234, -32295],
// CHECK-NEXT: [-600, -579, -558, -537, -516, -495, -474, -453, -432, -411, -390, -369, -348, -327, -306, -285, -264, -243, -222, -201, -180, -159, -138, -117, -96, -75, -54, -33, -12, 9, 30, 51, 72, 93, 114, 135, 156, 177, 198, 219, 240, 261, 282, 303, 324, 345, 366, 387, 408, 429, 450, 471, 492, 513, 534, 555, 576, 597, 618, 639, 660, 681, 702, 723],
// CHECK-NEXT: [-3750, -3625, -3500, -3375, -3250, -3125, -3000, -2875, -2750, -2625, -2500, -2375, -2250, -2125, -2000, -1875, -1750, -1625, -1500, -1375, -1250, -1125, -1000, -875, -750, -625, -500, -375, -250, -125, 0, 125, 250, 375, 500, 625, 750, 875, 1000, 1125, 1250, 1375, 1500, 1625, 1750, 1875, 2000, 2125, 2250, 2375, 2500, 2625, 2750, 2875, 3000, 3125, 3250, 3375, 3500, 3625, 3750, 3875, 4000, -4067],
// CHECK-NEXT: [-200, -193, -186, -179, -172, -165, -158, -151, -144, -137, -130, -123, -116, -109, -102, -95, -88, -81, -74, -67, -60, -53, -46, -39, -32, -25, -18, -11, -4, 3, 10, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000, 20000, 21000, 22000, 23000, 24000, 25000, 26000, 27000, 28000, 29000, 30000, 31000, 32000, 241]]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %k1000 = arith.constant 1000 : i32
  %k30000 = arith.constant 30000 : i32
  %k7 = arith.constant 7 : i32
  %k200 = arith.constant 200 : i32
  %x = memref.alloc() : memref<64xi16>
  %y = memref.alloc() : memref<64xi16>
  %out = memref.alloc() : memref<4x64xi16>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %ii, %k1000 : i32
    %xv = arith.subi %m, %k30000 : i32
    %n = arith.muli %ii, %k7 : i32
    %yv = arith.subi %n, %k200 : i32
    %x16 = arith.trunci %xv : i32 to i16
    %y16 = arith.trunci %yv : i32 to i16
    memref.store %x16, %x[%i] : memref<64xi16>
    memref.store %y16, %y[%i] : memref<64xi16>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c16 : index
    %i = arith.addi %base, %tx : index
    %a = memref.load %x[%i] : memref<64xi16>
    %b = memref.load %y[%i] : memref<64xi16>
    %three = arith.constant 3 : i16
    %s = arith.addi %a, %b : i16
    %p = arith.muli %b, %three : i16
    %sh = arith.shrsi %a, %three : i16
    %mx = arith.maxsi %a, %b : i16
    %r0 = arith.constant 0 : index
    %r1 = arith.constant 1 : index
    %r2 = arith.constant 2 : index
    %r3 = arith.constant 3 : index
    memref.store %s, %out[%r0, %i] : memref<4x64xi16>
    memref.store %p, %out[%r1, %i] : memref<4x64xi16>
    memref.store %sh, %out[%r2, %i] : memref<4x64xi16>
    memref.store %mx, %out[%r3, %i] : memref<4x64xi16>
    gpu.terminator
  }
  %wide = memref.alloc() : memref<4x64xi32>
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %out[%r, %i] : memref<4x64xi16>
      %w = arith.extsi %v : i16 to i32
      memref.store %w, %wide[%r, %i] : memref<4x64xi32>
    }
  }
  %u = memref.cast %wide : memref<4x64xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
