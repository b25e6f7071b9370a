// REQUIRES: cuda-toolkit
// The CUDA toolkit's stub libcuda.so exports the real driver's symbols (and
// fails every call): the runtime resolves every entry point it needs from
// it, then reports the stub's cuInit failure with its result code.
// RUN: not env KILN_CUDA_DRIVER=%cuda_toolkit/lib64/stubs/libcuda.so kiln-cuda-runner --list-devices 2>&1 | FileCheck %s
// CHECK: kiln-cuda: cuInit failed: CUresult 34
// CHECK-NOT: has no
