// Without a GPU: kiln-cuda-runner and a --target=cuda executable go through
// the whole host flow (module load, registration of host memory, launch,
// copies, timing) against a stand-in driver that runs no kernels, and report
// a missing driver or device clearly.
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/Inputs/scale.mlir --print-timing 2>&1 | FileCheck %s --check-prefix=FLOW
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/Inputs/scale.mlir --print-timing --device=1 --format=ptx 2>&1 | FileCheck %s --check-prefix=FLOW
// RUN: kiln-compile %S/Inputs/scale.mlir --target=cuda --emit=exe -o %t.exe
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe --print-timing 2>&1 | FileCheck %s --check-prefix=FLOW
// FLOW: kiln-timing kernel=scale gpu_us=500.000 host_us=
// FLOW: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =

// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner --list-devices | FileCheck %s --check-prefix=LIST
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe --list-devices | FileCheck %s --check-prefix=LIST
// LIST: CUDA driver 12.8, 2 devices
// LIST: 0: Fake GPU 0
// LIST-NEXT: chip sm_90, 81920 MiB
// LIST: 1: Fake GPU 1
// LIST-NEXT: chip sm_80

// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner --print-chip --device="gpu 1" | FileCheck %s --check-prefix=CHIP
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe --print-chip --device=1 | FileCheck %s --check-prefix=CHIP
// CHIP: sm_80

// RUN: not env KILN_CUDA_DRIVER=%t.nowhere kiln-cuda-runner %S/Inputs/scale.mlir 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: not env KILN_CUDA_DRIVER=%t.nowhere %t.exe 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: {{kiln-cuda|kiln-cuda-runner: error: --chip=device}}: cannot open the CUDA driver {{.*}}.nowhere (is the NVIDIA driver installed?)

// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver FAKE_CUDA_DEVICES=0 kiln-cuda-runner %S/Inputs/scale.mlir 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: kiln-cuda-runner: error: --chip=device: no CUDA device (the driver loaded, but reports none)
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %t.exe --device=quadro 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: kiln-cuda: no CUDA device matches 'quadro'; devices:
