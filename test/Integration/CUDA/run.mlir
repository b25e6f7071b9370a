// REQUIRES: cuda-device
// On an NVIDIA GPU: the program runs, JIT and ahead of time, PTX and cubin.
// RUN: kiln-cuda-runner %S/Inputs/scale.mlir | FileCheck %s
// RUN: kiln-cuda-runner %S/Inputs/scale.mlir --format=ptx | FileCheck %s
// RUN: kiln-compile %S/Inputs/scale.mlir --target=cuda --chip=device --emit=exe -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: [3,  4,  5,  6,  7,  8,  9,  10]
