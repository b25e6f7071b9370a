// The two-device program's errors on Vulkan
// (test/Integration/SPIRVCPU/two-devices.mlir and
// test/Integration/CUDA/two-devices.mlir have the other runtimes'): a
// device past the list, an entry no device matches, an empty entry and
// another device's memory in a launch.
// RUN: kiln-compile %S/../Inputs/two-devices.mlir --emit=exe -o %t.exe
// RUN: not kiln-vulkan-runner %S/../Inputs/two-devices.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not %t.exe 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: kiln-vulkan: mgpuSetDefaultDevice(1): the program has 1 device (the default device; list more with --device=A,B or KILN_VULKAN_DEVICE), numbered 0..0
// RUN: not kiln-vulkan-runner %S/../Inputs/two-devices.mlir --device=0,00000000-0000-0000-0000-000000000000 2>&1 | FileCheck %s --check-prefix=UUID
// UUID: device 1 (entry '00000000-0000-0000-0000-000000000000'): no Vulkan device has UUID '00000000-0000-0000-0000-000000000000'; the devices are:
// RUN: not kiln-vulkan-runner %S/../Inputs/two-devices.mlir --device=0, 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: --device='0,': entry 1 is empty
// RUN: not kiln-vulkan-runner %S/../Inputs/foreign-memory.mlir --device=0,0 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: kiln-vulkan: kernel 'scale' argument 0 is memory of device 0 (its gpu.alloc), but the launch runs on device 1; copy it to device 1 first (gpu.memcpy)
