// The same program (Inputs/ops.mlir) compiled for MPICH's ABI (--mpi=mpich)
// and run under MPICH's launcher, each rank's output in its own file.
// REQUIRES: mpich
// RUN: rm -f %t.out.*
// RUN: %mpich_mpirun -n 2 -outfile-pattern=%t.out.%%r kiln-spirv-cpu-runner %S/Inputs/ops.mlir --mpi=mpich
// RUN: FileCheck %S/ops.mlir --check-prefix=RANK0 < %t.out.0
// RUN: FileCheck %S/ops.mlir --check-prefix=RANK1 < %t.out.1
