// A program written for upstream's mlir-runner Vulkan path
// (../Vulkan/upstream_fill_resource.mlir, which also runs on
// kiln-vulkan-runner, ahead of time and on CUDA in the other suites) runs
// through every other front door: Kiln's pipeline piped into mlir-runner
// with Kiln's runtime, and upstream's test pipeline (which requests
// _mlir_ciface_ wrappers for every function) with Kiln's runtime as the
// drop-in. Both names of the fill helpers resolve.
// RUN: kiln-opt %S/../Vulkan/upstream_fill_resource.mlir --kiln-gpu-to-vulkan \
// RUN:   | %mlir_runner - -e main --entry-point-result=void \
// RUN:       --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %S/../Vulkan/upstream_fill_resource.mlir
// RUN: %mlir_opt %S/../Vulkan/upstream_fill_resource.mlir -convert-scf-to-cf -test-vulkan-runner-pipeline \
// RUN:   | %mlir_runner - -e main --entry-point-result=void \
// RUN:       --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %S/../Vulkan/upstream_fill_resource.mlir

// The CUDA runtime exports the same helpers: with the stand-in driver (which
// runs no kernel) the host's fills are seen, JIT and ahead of time.
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Vulkan/upstream_fill_resource.mlir \
// RUN:   | FileCheck %s --check-prefix=CUDA
// RUN: kiln-compile %S/../Vulkan/upstream_fill_resource.mlir --target=cuda --format=ptx --emit=exe -o %t.exe
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe | FileCheck %s --check-prefix=CUDA
// CUDA: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CUDA-NEXT: {{\[\[}}-7, -7, -7],
// CUDA: rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CUDA-NEXT: [-300, -300, -300, -300]
// CUDA: rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CUDA-NEXT: [0.5, 0.5, 0.5]
