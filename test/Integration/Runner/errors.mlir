// RUN: not kiln-vulkan-runner %s --device=no-such-device 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not kiln-vulkan-runner %s --target-env=vulkan-1.1 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not kiln-vulkan-runner %s -e nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not kiln-vulkan-runner %s -e with_args 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not kiln-vulkan-runner %s --entry-point-result=i32 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not kiln-vulkan-runner %s --entry-point-result=f64 2>&1 | FileCheck %s --check-prefix=RESULT-KIND
// RUN: not kiln-vulkan-runner %s --shared-libs=%t.nowhere.so 2>&1 | FileCheck %s --check-prefix=LIB
// RUN: not kiln-vulkan-runner %s -O5 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not kiln-vulkan-runner %t.nowhere.mlir 2>&1 | FileCheck %s --check-prefix=INPUT
// Errors are messages and a non-zero exit, never a crash, and nothing runs
// before the entry point is known to be right: an unknown device, a kernel
// the target env cannot take (vulkan-1.1 caps invocations at 128), an
// unknown entry point, one with arguments, one with another result than
// --entry-point-result says, a library or input that is not there.

// DEVICE: kiln-vulkan-runner: error: --target-env=device: no Vulkan device named 'no-such-device'; the devices are:
// DEVICE-NEXT: 0: {{.+}}
// LOWER: errors.mlir:[[@LINE+20]]:3: error: block size (256, 1, 1) of kernel 'main_kernel' is above the target env's limit in x: 256 > 128 (max_compute_workgroup_size)
// ENTRY: kiln-vulkan-runner: error: entry point '@nope' is not defined in the input
// ARGS: kiln-vulkan-runner: error: entry point '@with_args' takes 1 arguments; an entry point takes none
// RESULT: kiln-vulkan-runner: error: entry point '@main' returns void, not --entry-point-result=i32
// RESULT-KIND: kiln-vulkan-runner: error: unknown --entry-point-result='f64'; supported: void, i32, i64, f32
// LIB: kiln-vulkan-runner: error: cannot find shared library '{{.*}}.nowhere.so': No such file or directory
// OPT: kiln-vulkan-runner: error: -O5 is not a level; use -O0 to -O3
// INPUT: kiln-vulkan-runner: error: cannot open input file '{{.*}}.nowhere.mlir': No such file or directory
// The GPU work of @main never starts in these runs: no kernel output.
// ENTRY-NOT: launch
// RESULT-NOT: launch

func.func @with_args(%x: i32) {
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %m = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %m[%tx] : memref<256xf32>
    gpu.terminator
  }
  memref.dealloc %m : memref<256xf32>
  return
}
