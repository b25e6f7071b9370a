// What Kiln checks in mpi ops at run time ends the job with a message that
// names the rank and the op: a request waited for twice. The abort ends the
// job even where mpirun would wait for the other ranks.
// REQUIRES: mpi
// RUN: (timeout 60 %mpirun --mca orte_abort_on_non_zero_status 0 -n 2 kiln-spirv-cpu-runner %s; echo "exit status $?") 2>&1 | FileCheck %s
// CHECK: kiln-mpi: rank {{[01]}}: mpi.wait: request 1 was waited for already
// CHECK: exit status 1{{$}}
module {
  func.func @main() {
    %tag = arith.constant 3 : i32
    %i1 = arith.constant 1 : i32
    mpi.init
    %world = mpi.comm_world : !mpi.comm
    %rank = mpi.comm_rank(%world) : i32
    %size = mpi.comm_size(%world) : i32
    %other = arith.subi %i1, %rank : i32
    %out = memref.alloc() : memref<4xf32>
    %in = memref.alloc() : memref<4xf32>
    %r = mpi.irecv(%in, %tag, %other, %world) : memref<4xf32>, i32, i32 -> !mpi.request
    %s = mpi.isend(%out, %tag, %other, %world) : memref<4xf32>, i32, i32 -> !mpi.request
    mpi.wait(%r) : !mpi.request
    mpi.wait(%s) : !mpi.request
    mpi.wait(%r) : !mpi.request
    mpi.finalize
    return
  }
}
