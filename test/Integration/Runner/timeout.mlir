// A kernel that runs long (10^12 atomic adds on one address) does not make
// the runner or an executable wait forever: with --timeout=SECONDS (or
// KILN_TIMEOUT) the wait for the device is bounded and the run stops with
// an error naming the kernel, the limit and the device.
// RUN: not kiln-vulkan-runner %s --timeout=1 2>&1 | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: not %t.exe --timeout=0.5 2>&1 | FileCheck %s
// RUN: not env KILN_TIMEOUT=1 %t.exe 2>&1 | FileCheck %s
// CHECK: kiln-vulkan: kernel 'main_kernel' did not complete within {{0.5|1}} s (KILN_TIMEOUT) on device '{{.*}}'; stopping
// RUN: not env KILN_TIMEOUT=soon %t.exe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: kiln-vulkan: KILN_TIMEOUT='soon' is not a positive number of seconds

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cg = arith.constant 65535 : index
  %cb = arith.constant 256 : index
  %m = memref.alloc() : memref<1xi32>
  %zz = arith.constant 0 : i32
  memref.store %zz, %m[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %cg, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cb, %sy = %c1, %sz = %c1) {
    %n = arith.constant 100000000 : i32
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %c0i = arith.constant 0 : index
    %k = arith.constant 60000 : i32
    scf.for %i = %z to %k step %one : i32 {
      %old = memref.atomic_rmw addi %one, %m[%c0i] : (i32, memref<1xi32>) -> i32
    }
    gpu.terminator
  }
  %u = memref.cast %m : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
