// The CUDA runner's and executables' flags reach the runtime as its options
// and win over the environment variables they stand for (the stand-in
// driver, so this runs without a GPU).
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_TIMEOUT=-1 KILN_CUDA_DEVICE=no-such-device kiln-cuda-runner %S/../Vulkan/elementwise_f32_add.mlir --timeout=5 --device=0 | FileCheck %s
// RUN: kiln-compile %S/../Vulkan/elementwise_f32_add.mlir --target=cuda --format=ptx --emit=exe -o %t.exe
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_TIMEOUT=-1 KILN_CUDA_DEVICE=no-such-device %t.exe --timeout=5 --device=0 | FileCheck %s
// CHECK: Unranked Memref
