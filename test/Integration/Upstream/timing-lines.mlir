// Upstream's Vulkan runtime printed three timing lines per launch, and
// programs written for it CHECK them. KILN_VULKAN_TIMING=upstream prints them
// on stdout, in upstream's words, from every front door.
// RUN: %mlir_opt %S/addf_fill_resource.mlir -test-vulkan-runner-pipeline \
// RUN:   | env KILN_VULKAN_TIMING=upstream %mlir_runner - -e main --entry-point-result=void \
// RUN:       --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s
// RUN: env KILN_VULKAN_TIMING=upstream kiln-vulkan-runner %S/addf_fill_resource.mlir | FileCheck %s
// RUN: kiln-compile %S/addf_fill_resource.mlir --emit=exe -o %t.exe
// RUN: env KILN_VULKAN_TIMING=upstream %t.exe | FileCheck %s
// CHECK: Compute shader execution time: {{[0-9.]+}}us
// CHECK-NEXT: Command buffer submit time: {{[0-9]+}}us
// CHECK-NEXT: Wait idle time: {{[0-9]+}}us
// CHECK: [3.3, 3.3, 3.3, 3.3, 3.3, 3.3, 3.3, 3.3]

// Kiln's own format is unchanged.
// RUN: env KILN_VULKAN_TIMING=1 kiln-vulkan-runner %S/addf_fill_resource.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=KILN
// KILN: kiln-timing kernel=kernel_add gpu_us={{[0-9.]+}} host_us=
