// One program on two devices (test/Integration/Inputs/two-devices.mlir):
// memory on each, a copy from one device's memory to the other's, a launch
// on each, async launches on both waited together. One device listed twice
// (--device=0,0) gives two independent devices, through every front door.
// RUN: kiln-vulkan-runner %S/../Inputs/two-devices.mlir --validate --device=0,0 | FileCheck %s
// RUN: kiln-vulkan-runner %S/../Inputs/two-devices.mlir --validate --device=0,0,0 --print-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: kiln-opt %S/../Inputs/two-devices.mlir --kiln-gpu-to-vulkan | env KILN_VULKAN_DEVICE=0,0 KILN_VULKAN_VALIDATION=1 %mlir_runner - -e main --entry-point-result=void --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s
// RUN: kiln-compile %S/../Inputs/two-devices.mlir --emit=exe -o %t.exe
// RUN: %t.exe --validate --device=0,0 | FileCheck %s
// RUN: env KILN_VULKAN_DEVICE=0,0 %t.exe | FileCheck %s

// CHECK: [0,  6,  12,  18,  24,  30,  36,  42]
// CHECK: [0,  2,  4,  6,  8,  10,  12,  14]
// CHECK: [0,  18,  36,  54,  72,  90,  108,  126]
// TIMING-DAG: kiln-timing kernel=scale gpu_us={{.*}} device=0
// TIMING-DAG: kiln-timing kernel=scale gpu_us={{.*}} device=1
