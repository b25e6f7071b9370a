// A kernel compiled with --unbounded-access that writes over the host's
// heap (from 8 elements before its buffer on) corrupts malloc's chunks; the program then crashes
// in malloc, and about every other time the crash report (LLVM's stack
// trace, which allocates) waited forever for the lock malloc held. The
// crash watchdog (kiln/Driver/CrashWatchdog.h) ends such a report after
// 10 s. Two runs, each bounded by `timeout`; a hang would show as status
// 124. (--checked would refuse the store, see checked-out-of-bounds.mlir;
// by default it is dropped, see bounded-access.mlir.)
// UNSUPPORTED: sanitize
// RUN: sh -c 'for i in 1 2; do timeout 60 kiln-spirv-cpu-runner --unbounded-access "$0" >/dev/null 2>&1; echo "status $?"; done' %s | FileCheck %s
// CHECK-NOT: status 124
// CHECK: status {{[1-9][0-9]*}}
// CHECK-NOT: status 124
// CHECK: status {{[1-9][0-9]*}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc host_shared () : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.constant -8 : index
    %w = arith.muli %bx, %c64 : index
    %i0 = arith.addi %w, %tx : index
    %i = arith.addi %base, %i0 : index
    %v = arith.constant 123456789 : i32
    memref.store %v, %out[%i] : memref<4xi32>
    gpu.terminator
  }
  %big = memref.alloc() : memref<1000000xi32>
  memref.dealloc %big : memref<1000000xi32>
  return
}
