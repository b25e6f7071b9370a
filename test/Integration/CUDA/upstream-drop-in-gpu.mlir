// REQUIRES: cuda-device
// RUN: %mlir_opt %S/Inputs/upstream-style.mlir -convert-linalg-to-loops \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx78 cubin-format=isa" \
// RUN:   | %mlir_runner - -e main --entry-point-result=void \
// RUN:       --shared-libs=%kiln_lib_dir/libkiln_cuda_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s
// CHECK: [9,  9,  9,  9]
