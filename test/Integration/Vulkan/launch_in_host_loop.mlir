// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// A gpu.launch inside a host scf.for: five accumulating launches, the loop counter as a kernel argument, host writes in between.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [40, 55, 70, 85, 100, 115, 130, 145, 160, 175, 190, 205, 220, 235, 250, 265, 280, 295, 310, 325, 340, 355, 370, 385, 400, 415, 430, 445, 460, 475, 490, 505]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %onef = arith.constant 1.0 : f32
  %k0 = arith.constant 0 : i32
  %x = memref.alloc() : memref<32xf32>
  %acc = memref.alloc() : memref<32xf32>
  %count = memref.alloc() : memref<32xi32>
  // x[i] = i, acc = 0, count = 0.
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<32xf32>
    memref.store %zero, %acc[%i] : memref<32xf32>
    memref.store %k0, %count[%i] : memref<32xi32>
  }
  // Five launches from a host loop: launch `it` adds x[i] * (it + 1) to acc[i],
  // then the host adds 1 to every x[i] before the next launch. So
  // acc[i] = sum over it of (i + it) * (it + 1) = 15 i + 40; count[i] = 5.
  scf.for %it = %c0 to %c5 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1 : i32
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %it32 = arith.index_cast %it : index to i32
      %w32 = arith.addi %it32, %one : i32
      %w = arith.sitofp %w32 : i32 to f32
      %v = memref.load %x[%i] : memref<32xf32>
      %a = memref.load %acc[%i] : memref<32xf32>
      %p = arith.mulf %v, %w : f32
      %s = arith.addf %a, %p : f32
      memref.store %s, %acc[%i] : memref<32xf32>
      %n = memref.load %count[%i] : memref<32xi32>
      %n1 = arith.addi %n, %one : i32
      memref.store %n1, %count[%i] : memref<32xi32>
      gpu.terminator
    }
    scf.for %i = %c0 to %c32 step %c1 {
      %v = memref.load %x[%i] : memref<32xf32>
      %v1 = arith.addf %v, %onef : f32
      memref.store %v1, %x[%i] : memref<32xf32>
    }
  }
  %u = memref.cast %acc : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %uc = memref.cast %count : memref<32xi32> to memref<*xi32>
  call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
  memref.dealloc %x : memref<32xf32>
  memref.dealloc %acc : memref<32xf32>
  memref.dealloc %count : memref<32xi32>
  return
}
