// RUN: kiln-opt %s --split-input-file --kiln-mpi-to-llvm | FileCheck %s
// RUN: not kiln-opt %s --split-input-file --kiln-mpi-to-llvm=implementation=mpich -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not kiln-opt %s --kiln-mpi-to-llvm=implementation=intel -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// The module's #dlti.map entry names the implementation; the pass option
// is the default only. Once every call names it, the entry is removed (MLIR's
// runner does not register DLTI); other entries of the map stay.

// CHECK: module attributes {dlti.map = #dlti.map<"MPI:comm_world-rank" = 0 : i32>}
// CHECK-LABEL: func.func @mpich
// CHECK: %[[IMPL:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_mpi_init(%[[IMPL]])
module attributes {dlti.map = #dlti.map<"MPI:comm_world-rank" = 0 : i32, "MPI:Implementation" = "MPICH">} {
  func.func @mpich() {
    %0 = mpi.init : !mpi.retval
    return
  }
}

// -----

// A map without the entry keeps its other entries.
// CHECK: module attributes {dlti.map = #dlti.map<"other" = 1 : i32>}
// CHECK-LABEL: func.func @openmpi
// CHECK: %[[IMPL:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_mpi_init(%[[IMPL]])
module attributes {dlti.map = #dlti.map<"other" = 1 : i32>} {
  func.func @openmpi() {
    %0 = mpi.init : !mpi.retval
    return
  }
}

// -----

// An explicit option naming another implementation than the module is an
// error at the module; one that agrees with it (the first module) is not.
// CONFLICT-NOT: error
// CONFLICT: mpi-to-llvm-implementation.mlir:[[@LINE+1]]:1: error: the module's #dlti.map<"MPI:Implementation" = "OpenMPI"> conflicts with kiln-mpi-to-llvm implementation=mpich
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  func.func @conflict() {
    %0 = mpi.init : !mpi.retval
    return
  }
}

// OPTION: error: unknown kiln-mpi-to-llvm implementation='intel'; supported: openmpi, mpich
