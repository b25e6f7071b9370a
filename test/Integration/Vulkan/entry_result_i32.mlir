// RUN: kiln-vulkan-runner %s --validate --entry-point-result=i32 | FileCheck %s
// An entry point returning i32 (--entry-point-result=i32): the host sum of squares computed on the device.

// CHECK: {{^}}1240{{$}}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16xi32>
  // out[i] = i * i on the device.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ii = arith.index_cast %i : index to i32
    %sq = arith.muli %ii, %ii : i32
    memref.store %sq, %out[%i] : memref<16xi32>
    gpu.terminator
  }
  // The host sums them: 0 + 1 + 4 + ... + 225 = 1240, the value @main returns.
  %zero = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %out[%i] : memref<16xi32>
    %a = arith.addi %acc, %v : i32
    scf.yield %a : i32
  }
  memref.dealloc %out : memref<16xi32>
  return %sum : i32
}
