// Without a GPU: programs with launches on several streams and with
// async.execute host code compile for CUDA (JIT and as executables) and run
// their whole host flow against the stand-in driver, which runs no kernels
// (so only the host's own values are checked).
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Vulkan/async_execute.mlir | FileCheck %s --check-prefix=EXEC
// RUN: kiln-compile %S/../Vulkan/async_execute.mlir --target=cuda --format=ptx --emit=exe -o %t.exec
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exec | FileCheck %s --check-prefix=EXEC
// The region that returns b[1] runs before the kernels would change it.
// EXEC-COUNT-1: Unranked Memref base@ = {{.*}} sizes = [16]
// EXEC-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
// EXEC-NEXT: 1
// EXEC: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Vulkan/async_streams.mlir | FileCheck %s --check-prefix=STREAMS
// RUN: kiln-compile %S/../Vulkan/async_streams.mlir --target=cuda --format=ptx --emit=exe -o %t.streams
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.streams | FileCheck %s --check-prefix=STREAMS
// STREAMS-COUNT-2: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
