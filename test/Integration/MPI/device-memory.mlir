// gpu.alloc memory in mpi.allreduce (in place), mpi.send and mpi.recv on
// every runtime: Vulkan (lavapipe), spirv-cpu and CUDA against the stand-in
// driver, whose two devices the two ranks take one each.
// REQUIRES: mpi, vulkan-runner
// RUN: %mpirun -n 2 --tag-output kiln-vulkan-runner %S/Inputs/device-memory.mlir --validate > %t.vk
// RUN: grep '^\[1,0\]' %t.vk | FileCheck %s --check-prefix=RANK0
// RUN: grep '^\[1,1\]' %t.vk | FileCheck %s --check-prefix=RANK1
// RUN: %mpirun -n 2 --tag-output kiln-spirv-cpu-runner %S/Inputs/device-memory.mlir > %t.cpu
// RUN: grep '^\[1,0\]' %t.cpu | FileCheck %s --check-prefix=RANK0
// RUN: grep '^\[1,1\]' %t.cpu | FileCheck %s --check-prefix=RANK1
// RUN: %mpirun -n 2 --tag-output -x KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner %S/Inputs/device-memory.mlir > %t.cuda
// RUN: grep '^\[1,0\]' %t.cuda | FileCheck %s --check-prefix=RANK0
// RUN: grep '^\[1,1\]' %t.cuda | FileCheck %s --check-prefix=RANK1
// RANK0: [1,  3,  5,  7,  9,  11]
// RANK0-NOT: [0,  1,  2
// RANK1: [1,  3,  5,  7,  9,  11]
// RANK1: [0,  1,  2,  3,  4,  5]
