// Every mpi op on 2 ranks (Inputs/ops.mlir), through the spirv-cpu runner
// and an executable under Open MPI, and under MPICH with --mpi=mpich. Each
// rank's lines are picked out by mpirun's tag and checked in order.
// REQUIRES: mpi
// RUN: %mpirun -n 2 --tag-output kiln-spirv-cpu-runner %S/Inputs/ops.mlir > %t.jit
// RUN: grep '^\[1,0\]' %t.jit | FileCheck %s --check-prefix=RANK0
// RUN: grep '^\[1,1\]' %t.jit | FileCheck %s --check-prefix=RANK1
// RUN: kiln-compile %S/Inputs/ops.mlir --target=spirv-cpu --emit=exe -o %t.exe
// RUN: %mpirun -n 2 --tag-output %t.exe > %t.aot
// RUN: grep '^\[1,0\]' %t.aot | FileCheck %s --check-prefix=RANK0
// RUN: grep '^\[1,1\]' %t.aot | FileCheck %s --check-prefix=RANK1

// RANK0: [0,  2]
// RANK0: [10,  11,  12,  13]
// RANK0: [1,  2]
// RANK0: {{\[\[}}0,   1,   2,   3],
// RANK0: [12,   13,   14,   15]]
// RANK0: {{\[\[}}0,   2,   4],
// RANK0: [6,   8,   10]]
// RANK0: [1,  1,  0,  1,  2,  2000]
// RANK0: [0.5,  1.5,  2.5,  3,  6,  6]
// RANK0: [1,  1,  0]

// RANK1: [1,  2]
// RANK1: [0,  1,  2,  3]
// RANK1: [0,  2]
// RANK1: {{\[\[}}100,   101,   1,   103],
// RANK1: [104,   105,   5,   107],
// RANK1: [108,   109,   9,   111],
// RANK1: [112,   113,   13,   115]]
// RANK1: {{\[\[}}0,   2,   4],
// RANK1: [6,   8,   10]]
// RANK1: [1,  1,  0,  1,  2,  2000]
// RANK1: [0.5,  1.5,  2.5,  3,  6,  6]
// RANK1: [1,  1,  0]
