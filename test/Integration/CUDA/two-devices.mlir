// The two-device program (test/Integration/Inputs/two-devices.mlir) on the
// CUDA runtime against the stand-in driver, which has two devices and runs
// no kernels: every call goes to the device it belongs to (the timing lines
// name it), through the runner and an executable, by index and by UUID.
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Inputs/two-devices.mlir --device=0,1 --print-timing 2>&1 | FileCheck %s
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Inputs/two-devices.mlir --device=0,0,1 --format=ptx --print-timing 2>&1 | FileCheck %s
// RUN: kiln-compile %S/../Inputs/two-devices.mlir --target=cuda --emit=exe -o %t.exe
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_CUDA_DEVICE=1,0 %t.exe --print-timing 2>&1 | FileCheck %s
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe --device=0,GPU-fa4ec0da-0000-0000-0000-000000000001 --print-timing 2>&1 | FileCheck %s
// CHECK: kiln-timing kernel=scale gpu_us={{.*}} device=0
// CHECK-NEXT: kiln-timing kernel=scale gpu_us={{.*}} device=1
// CHECK: Unranked Memref
// CHECK: kiln-timing kernel=scale gpu_us={{.*}} device=0
// CHECK: kiln-timing kernel=scale gpu_us={{.*}} device=1

// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner --list-devices | FileCheck %s --check-prefix=LIST
// LIST: 0: Fake GPU 0
// LIST: uuid: GPU-fa4ec0da-0000-0000-0000-000000000000
// LIST: 1: Fake GPU 1
// LIST: uuid: GPU-fa4ec0da-0000-0000-0000-000000000001

// A device past the list, a UUID no device has, and another device's memory
// in a launch (checked where the driver tells parameter sizes: the stand-in
// does for PTX).
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Inputs/two-devices.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: kiln-cuda: mgpuSetDefaultDevice(1): the program has 1 device (the default device; list more with --device=A,B or KILN_CUDA_DEVICE), numbered 0..0
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe --device=0,GPU-00000000-0000-0000-0000-000000000000 2>&1 | FileCheck %s --check-prefix=UUID
// UUID: device 1 (entry 'GPU-00000000-0000-0000-0000-000000000000'): no CUDA device has UUID
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/../Inputs/foreign-memory.mlir --device=0,1 --format=ptx 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: kiln-cuda: kernel 'scale' argument 0 is memory of device 0 (its gpu.alloc), but the launch runs on device 1; copy it to device 1 first (gpu.memcpy)
