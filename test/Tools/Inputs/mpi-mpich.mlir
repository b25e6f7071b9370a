// A program compiled for MPICH (kiln-compile-mpi.mlir).
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  func.func @main() {
    %0 = mpi.init : !mpi.retval
    %1 = mpi.finalize : !mpi.retval
    return
  }
}
