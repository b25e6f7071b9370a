// REQUIRES: cuda-device
// gpu.printf on an NVIDIA GPU: vprintf's output reaches stdout when the
// launch is synchronized, JIT and ahead of time.
// RUN: kiln-cuda-runner %S/../../Conversion/GPUToSPIRV/printf.mlir | sort | FileCheck %s
// RUN: kiln-compile %S/../../Conversion/GPUToSPIRV/printf.mlir --target=cuda --chip=device --emit=exe -o %t.exe
// RUN: %t.exe | sort | FileCheck %s
// CHECK: thread 0
// CHECK-NEXT: thread 1
// CHECK-NEXT: thread 2
// CHECK-NEXT: thread 3
