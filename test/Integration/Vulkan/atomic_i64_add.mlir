// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref.atomic_rmw addi on i64 (Int64Atomics): 256 threads add addends above 2^32 into four counters starting at 2^40.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [25483511627776, 25675511627776, 25867511627776, 26059511627776]

func.func private @printMemrefI64(memref<*xi64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %start = arith.constant 1099511627776 : i64
  %totals = memref.alloc() : memref<4xi64>
  // totals[k] starts at 2^40.
  scf.for %k = %c0 to %c4 step %c1 {
    memref.store %start, %totals[%k] : memref<4xi64>
  }
  // Thread i (0..255) adds (i + 1) * 3000000000 to totals[i mod 4]: every
  // addend and every total needs more than 32 bits.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k3e9 = arith.constant 3000000000 : i64
    %one = arith.constant 1 : i64
    %four = arith.constant 4 : index
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %i64 = arith.index_cast %i : index to i64
    %i1 = arith.addi %i64, %one : i64
    %v = arith.muli %i1, %k3e9 : i64
    %k = arith.remui %i, %four : index
    %old = memref.atomic_rmw addi %v, %totals[%k] : (i64, memref<4xi64>) -> i64
    gpu.terminator
  }
  %u = memref.cast %totals : memref<4xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %totals : memref<4xi64>
  return
}
