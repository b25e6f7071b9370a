// --mpi names the MPI the program's mpi ops call: the first argument of
// every __kiln_mpi_* call, 0 for Open MPI (the default), 1 for MPICH.
// RUN: kiln-compile %s --emit=llvm -o - | FileCheck %s --check-prefix=OPENMPI
// RUN: kiln-compile %s --emit=llvm --mpi=openmpi -o - | FileCheck %s --check-prefix=OPENMPI
// RUN: kiln-compile %s --emit=llvm --mpi=mpich -o - | FileCheck %s --check-prefix=MPICH
// --emit=mlir records it in the module, for a later pipeline.
// RUN: kiln-compile %s --emit=mlir --mpi=mpich -o - | FileCheck %s --check-prefix=RECORDED
// A module that names its MPI keeps it; --mpi may agree with it, not
// differ.
// RUN: kiln-compile %S/Inputs/mpi-mpich.mlir --emit=llvm -o - | FileCheck %s --check-prefix=MPICH
// RUN: kiln-compile %S/Inputs/mpi-mpich.mlir --emit=llvm --mpi=mpich -o - | FileCheck %s --check-prefix=MPICH
// RUN: not kiln-compile %S/Inputs/mpi-mpich.mlir --emit=llvm --mpi=openmpi -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFLICT
// Any other name is an error, from every door.
// RUN: not kiln-compile %s --emit=llvm --mpi=intel -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not kiln-spirv-cpu-runner %s --mpi=intel 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not kiln-vulkan-runner %s --mpi=intel 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not kiln-cuda-runner %s --mpi=intel 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: kiln-compile --help | FileCheck %s --check-prefix=HELP
// RUN: kiln-spirv-cpu-runner --help | FileCheck %s --check-prefix=HELP

// OPENMPI: call i32 @__kiln_mpi_init(i32 0)
// OPENMPI: call i32 @__kiln_mpi_finalize(i32 0)
// MPICH: call i32 @__kiln_mpi_init(i32 1)
// MPICH: call i32 @__kiln_mpi_finalize(i32 1)
// RECORDED: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">
// RECORDED: mpi.init
// CONFLICT: mpi-mpich.mlir:2:1: error: the module's #dlti.map<"MPI:Implementation" = "MPICH"> conflicts with --mpi=openmpi
// BAD: : error: unknown --mpi='intel'; supported: openmpi, mpich
// HELP: --mpi=<name> {{.*}}The MPI the program's mpi ops call: openmpi (default) or mpich

module {
  func.func @main() {
    %0 = mpi.init : !mpi.retval
    %1 = mpi.finalize : !mpi.retval
    return
  }
}
