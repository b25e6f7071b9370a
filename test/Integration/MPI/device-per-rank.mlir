// Each rank takes device (local rank mod device count) unless the program's
// devices are named: on the stand-in CUDA driver, whose device 0 is an sm_90
// and device 1 an sm_80, rank 0 gets the first and rank 1 the second, and
// with --device=0 or KILN_CUDA_DEVICE=0 both get device 0. On spirv-cpu the
// host's worker threads are shared among the ranks of the node.
// REQUIRES: mpi
// RUN: %mpirun -n 2 --tag-output -x KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner --print-chip | FileCheck %s --check-prefix=OWN
// RUN: %mpirun -n 2 --tag-output -x KILN_CUDA_DRIVER=%fake_cuda_driver kiln-cuda-runner --print-chip --device=0 | FileCheck %s --check-prefix=NAMED
// RUN: %mpirun -n 2 --tag-output -x KILN_CUDA_DRIVER=%fake_cuda_driver -x KILN_CUDA_DEVICE=0 kiln-cuda-runner --print-chip | FileCheck %s --check-prefix=NAMED
// RUN: %mpirun -n 2 --tag-output kiln-spirv-cpu-runner --list-devices | FileCheck %s --check-prefix=CPU
// OWN-DAG: [1,0]<stdout>:sm_90
// OWN-DAG: [1,1]<stdout>:sm_80
// NAMED-DAG: [1,0]<stdout>:sm_90
// NAMED-DAG: [1,1]<stdout>:sm_90
// CPU-DAG: [1,0]<stdout>:  worker threads: {{[0-9]+}} (hardware concurrency shared by the launcher's 2 ranks on this node)
// CPU-DAG: [1,1]<stdout>:  worker threads: {{[0-9]+}} (hardware concurrency shared by the launcher's 2 ranks on this node)
