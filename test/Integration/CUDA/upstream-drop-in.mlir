// Drop-in for upstream's CUDA runtime: mlir-opt's own pipeline, mlir-runner,
// and libkiln_cuda_runtime.so in place of libmlir_cuda_runtime.so (which
// Debian does not ship). Against the stand-in driver everywhere (every mgpu*
// symbol the lowering calls resolves and the host flow completes); on a GPU,
// with the results.
// RUN: %mlir_opt %S/Inputs/upstream-style.mlir -convert-linalg-to-loops \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx78 cubin-format=isa" \
// RUN:   | env KILN_CUDA_DRIVER=%fake_cuda_driver %mlir_runner - -e main --entry-point-result=void \
// RUN:       --shared-libs=%kiln_lib_dir/libkiln_cuda_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s --check-prefix=FAKE
// FAKE: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
