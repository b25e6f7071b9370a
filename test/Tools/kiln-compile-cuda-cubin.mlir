// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=cubin --chip=sm_80 -o %t
// RUN: llvm-readelf --file-header %t/kernels.cubin | FileCheck %s
// CHECK: Class: ELF64
// CHECK: Machine: NVIDIA CUDA architecture
// The executable's kernels are a fatbin by default.
// RUN: kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=llvm | FileCheck %s --check-prefix=FATBIN
// FATBIN: @kernels_binary = internal constant [{{[0-9]+}} x i8] c"P\EDU\BA
// FATBIN: call ptr @mgpuModuleLoad(ptr {{.*}}@kernels_binary, i64 {{[0-9]+}})
