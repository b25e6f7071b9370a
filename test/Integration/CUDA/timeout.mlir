// KILN_TIMEOUT bounds every wait for a CUDA device too: the stand-in driver
// with FAKE_CUDA_BUSY=1 never completes any work, and the run stops with the
// kernel, the limit and the device named instead of waiting forever, JIT and
// ahead of time; without the limit the same programs finish.
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver FAKE_CUDA_BUSY=1 KILN_TIMEOUT=0.2 kiln-cuda-runner %S/../Vulkan/elementwise_f32_add.mlir 2>&1 | FileCheck %s
// RUN: kiln-compile %S/../Vulkan/elementwise_f32_add.mlir --target=cuda --format=ptx --emit=exe -o %t.exe
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver FAKE_CUDA_BUSY=1 KILN_TIMEOUT=0.2 %t.exe 2>&1 | FileCheck %s
// CHECK: kiln-cuda: kernel 'main_kernel' did not complete within 0.2 s (KILN_TIMEOUT) on device 0 (Fake GPU 0); stopping
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_TIMEOUT=5 %t.exe | FileCheck %s --check-prefix=DONE
// DONE: Unranked Memref
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_TIMEOUT=-1 %t.exe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: kiln-cuda: KILN_TIMEOUT='-1' is not a positive number of seconds
// The flag form, on the runner and on an executable.
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver FAKE_CUDA_BUSY=1 kiln-cuda-runner %S/../Vulkan/elementwise_f32_add.mlir --timeout=0.2 2>&1 | FileCheck %s
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver FAKE_CUDA_BUSY=1 %t.exe --timeout=0.2 2>&1 | FileCheck %s
