// A kernel whose private arrays exceed what the spirv-cpu target gives an
// invocation (4 MiB) is refused at its largest array, before anything runs;
// it used to crash the worker thread's stack.
// RUN: not kiln-spirv-cpu-runner %s 2>&1 | FileCheck %s

// CHECK: private-memory-limit.mlir:[[@LINE+7]]:10: error: kernel 'main_kernel' needs 16777216 bytes of private memory per invocation (its variables and memref.alloca arrays, with those of the functions it calls); the spirv-cpu target allows at most 4194304: put larger arrays in workgroup memory or a buffer
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = gpu.alloc host_shared () : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<4194304xf32>
    %v = arith.constant 3.0 : f32
    memref.store %v, %a[%c0] : memref<4194304xf32>
    %x = memref.load %a[%c0] : memref<4194304xf32>
    memref.store %x, %out[%c0] : memref<1xf32>
    gpu.terminator
  }
  return
}
