// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// scf.while inside a kernel: Collatz step counts for 1..64.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [0, 1, 7, 2, 5, 8, 16, 3, 19, 6, 14, 9, 9, 17, 17, 4, 12, 20, 20, 7, 7, 15, 15, 10, 23, 10, 111, 18, 18, 18, 106, 5, 26, 13, 13, 21, 21, 21, 34, 8, 109, 8, 29, 16, 16, 16, 104, 11, 24, 24, 24, 11, 11, 112, 112, 19, 32, 19, 32, 19, 19, 107, 107, 6]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %steps = memref.alloc() : memref<64xi32>
  // steps[i] = number of Collatz steps from i + 1 down to 1, with scf.while.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %k3 = arith.constant 3 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ii = arith.index_cast %i : index to i32
    %start = arith.addi %ii, %k1 : i32
    %res:2 = scf.while (%v = %start, %s = %k0) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ne, %v, %k1 : i32
      scf.condition(%more) %v, %s : i32, i32
    } do {
    ^bb0(%v: i32, %s: i32):
      %bit = arith.andi %v, %k1 : i32
      %odd = arith.cmpi ne, %bit, %k0 : i32
      %next = scf.if %odd -> (i32) {
        %t = arith.muli %v, %k3 : i32
        %t1 = arith.addi %t, %k1 : i32
        scf.yield %t1 : i32
      } else {
        %h = arith.shrui %v, %k1 : i32
        scf.yield %h : i32
      }
      %s1 = arith.addi %s, %k1 : i32
      scf.yield %next, %s1 : i32, i32
    }
    memref.store %res#1, %steps[%i] : memref<64xi32>
    gpu.terminator
  }
  %u = memref.cast %steps : memref<64xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %steps : memref<64xi32>
  return
}
