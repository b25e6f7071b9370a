// RUN: kiln-vulkan-runner %kiln_src_root/examples/two-devices.mlir --validate --device=0,0 | FileCheck %s
// RUN: kiln-compile %kiln_src_root/examples/two-devices.mlir --emit=exe -o %t.exe
// RUN: env KILN_VULKAN_DEVICE=0,0 %t.exe --validate | FileCheck %s
// The two-device example splits a saxpy over two devices (y = 1000 + i) and
// moves a result between their memories (10 * i + 1).

// CHECK: [1000,  1001,  1002,
// CHECK-SAME: 1098,  1099]
// CHECK: [1,  11,  21,  31,  41,  51,  61,  71]
