// The MPI example (examples/mpi-heat.mlir): the same rod on 1, 2 and 4
// ranks, halo cells swapped in device memory, through the Vulkan runner,
// an executable and the spirv-cpu runner. The numbers are those of the
// same steps in single precision on the host.
// REQUIRES: mpi, vulkan-runner
// RUN: %mpirun -n 1 kiln-vulkan-runner %kiln_src_root/examples/mpi-heat.mlir --validate | FileCheck %s
// RUN: %mpirun -n 2 kiln-vulkan-runner %kiln_src_root/examples/mpi-heat.mlir --validate | FileCheck %s
// RUN: kiln-compile %kiln_src_root/examples/mpi-heat.mlir --emit=exe -o %t.exe
// RUN: %mpirun -n 2 %t.exe | FileCheck %s
// RUN: %mpirun -n 4 kiln-spirv-cpu-runner %kiln_src_root/examples/mpi-heat.mlir | FileCheck %s

// CHECK: [21.218,  27.9057,  35.2281,  42.7204,  49.8008,  55.8405,  60.2526,  62.5826,  62.5826,  60.2526,  55.8405,  49.8008,  42.7204,  35.2281,  27.9057,  21.218]
// CHECK: [62.5826]
// CHECK-NOT: Memref
