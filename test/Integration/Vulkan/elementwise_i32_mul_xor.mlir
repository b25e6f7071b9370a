// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Element-wise i32 multiplication (wrapping modulo 2^32) and xor of negative and positive values.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [-6000000, -1882172629, 783536038, -598808591, -1734239220, 1672211447, 1030608818, 635920189, 488145560, 587284931, 933338302, 1526305673, -1928780252, -841984881, 491724490, 2072347861, -395082064, 1679369307, -294232618, -2020920543, 794272828, -438587097, -1424533022, 2131402349, 1639284424, 1394080499, 1395790574, 1644414649, 2139952724, -1412562497, -423196422, 813083653]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [-1999997, -1876438, -1751087, -1627656, -1504473, -1378994, -1253771, -1134564, -1010997, -897822, -756455, -647504, -509841, -407034, -266819, -161836, -24301, 115642, 205377, 330856, 485047, 612574, 702693, 824972, 978011, 1110642, 1184649, 1323296, 1464319, 1600918, 1673773, 1808452]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ka = arith.constant 123457 : i32
  %kb = arith.constant 1000 : i32
  %off_a = arith.constant -2000000 : i32
  %off_b = arith.constant 3 : i32
  %a = memref.alloc() : memref<32xi32>
  %b = memref.alloc() : memref<32xi32>
  %prod = memref.alloc() : memref<32xi32>
  %xor = memref.alloc() : memref<32xi32>
  // a[i] = i * 123457 - 2000000 (negative up to i = 16), b[i] = i * 1000 + 3.
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %x0 = arith.muli %ii, %ka : i32
    %x = arith.addi %x0, %off_a : i32
    %y0 = arith.muli %ii, %kb : i32
    %y = arith.addi %y0, %off_b : i32
    memref.store %x, %a[%i] : memref<32xi32>
    memref.store %y, %b[%i] : memref<32xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %x = memref.load %a[%i] : memref<32xi32>
    %y = memref.load %b[%i] : memref<32xi32>
    // Products past i = 17 or so wrap around modulo 2^32.
    %p = arith.muli %x, %y : i32
    %q = arith.xori %x, %y : i32
    memref.store %p, %prod[%i] : memref<32xi32>
    memref.store %q, %xor[%i] : memref<32xi32>
    gpu.terminator
  }
  %up = memref.cast %prod : memref<32xi32> to memref<*xi32>
  call @printMemrefI32(%up) : (memref<*xi32>) -> ()
  %ux = memref.cast %xor : memref<32xi32> to memref<*xi32>
  call @printMemrefI32(%ux) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<32xi32>
  memref.dealloc %b : memref<32xi32>
  memref.dealloc %prod : memref<32xi32>
  memref.dealloc %xor : memref<32xi32>
  return
}
