// An op the SPIR-V to LLVM conversion cannot lower is refused at the op,
// through every front door of the spirv-cpu target.
// RUN: not kiln-spirv-cpu-runner %s 2>&1 | FileCheck %s
// RUN: not kiln-compile %s --target=spirv-cpu --emit=obj -o %t.o 2>&1 | FileCheck %s
// RUN: not kiln-opt %s --kiln-gpu-to-spirv-cpu 2>&1 | FileCheck %s

// CHECK: unsupported-op.mlir:[[@LINE+10]]:10: error: the spirv-cpu target cannot run 'spirv.GL.Cosh': it has no lowering to the LLVM dialect

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %buf[%c0] : memref<1xf32>
    // math.cosh lowers to spirv.GL.Cosh, which has no LLVM lowering.
    %y = math.cosh %x : f32
    memref.store %y, %buf[%c0] : memref<1xf32>
    gpu.terminator
  }
  memref.dealloc %buf : memref<1xf32>
  return
}
