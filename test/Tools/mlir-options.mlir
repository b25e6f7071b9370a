// MLIR's pass-manager options apply to the pipelines kiln-compile and the
// runners run: IR printing, pass statistics, crash reproducers, and
// --mlir-timing, which also times the tools' own steps after the pipeline.
// RUN: kiln-compile %s --emit=spirv -o %t.spv --mlir-print-ir-after=kiln-convert-gpu-to-spirv 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: kiln-compile %s --emit=llvm -o %t.ll --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: kiln-compile %s --emit=spirv -o %t.spv --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: kiln-compile %s --emit=mlir --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUGINFO
// RUN: kiln-vulkan-runner %s --mlir-print-ir-after=kiln-convert-gpu-to-spirv --mlir-timing 2>&1 | FileCheck %s --check-prefixes=PRINT,RUN-TIMING,RESULT
// RUN: kiln-spirv-cpu-runner %s --mlir-timing 2>&1 | FileCheck %s --check-prefixes=RUN-TIMING,RESULT
// RUN: rm -rf %t.repro && not kiln-compile %s --target-env=vulkan-1.1 --emit=spirv -o %t.bad.spv --mlir-pass-pipeline-crash-reproducer=%t.repro 2>&1 | FileCheck %s --check-prefix=REPRO
// RUN: FileCheck %s --check-prefix=REPRO-FILE < %t.repro

// PRINT: IR Dump After KilnConvertGPUToSPIRV
// PRINT: spirv.module

// TIMING: Execution time report
// TIMING: Parse
// TIMING: Pipeline
// TIMING: KilnConvertGPUToSPIRV
// TIMING: Translate to LLVM IR
// TIMING: Optimize LLVM IR

// STATS: Pass statistics report

// DEBUGINFO: loc(

// The entry point's i32 result is printed without --entry-point-result
// (before the timing report, which is printed at the end).
// RESULT: 42

// RUN-TIMING: Execution time report
// RUN-TIMING: Pipeline
// RUN-TIMING: JIT compile
// RUN-TIMING: Run

// REPRO: error: block size (256, 1, 1) of kernel 'main_kernel' is above the target env's limit
// REPRO-FILE: pipeline:

func.func @main() -> i32 {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %m = gpu.alloc host_shared () : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %m[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.dealloc %m : memref<256xf32>
  %r = arith.constant 42 : i32
  return %r : i32
}
