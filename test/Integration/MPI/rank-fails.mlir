// A rank that hits a runtime error ends the whole job: rank 1 asks for a
// device the program does not have while rank 0 waits for a message from
// it. Rank 1 prints its message and MPI_Abort stops rank 0. mpirun is told
// not to end the job itself when a rank exits with an error
// (orte_abort_on_non_zero_status 0), so without the abort rank 0 would wait
// until the timeout (status 124). The same through an executable.
// REQUIRES: mpi
// RUN: (timeout 60 %mpirun --mca orte_abort_on_non_zero_status 0 -n 2 kiln-spirv-cpu-runner %s; echo "exit status $?") 2>&1 | FileCheck %s
// RUN: kiln-compile %s --target=spirv-cpu --emit=exe -o %t.exe
// RUN: (timeout 60 %mpirun --mca orte_abort_on_non_zero_status 0 -n 2 %t.exe; echo "exit status $?") 2>&1 | FileCheck %s
// CHECK: mgpuSetDefaultDevice(5): the program has 1 device
// CHECK-NOT: Unranked Memref
// CHECK: exit status 1{{$}}
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %tag = arith.constant 3 : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %c5 = arith.constant 5 : i32
    mpi.init
    %world = mpi.comm_world : !mpi.comm
    %rank = mpi.comm_rank(%world) : i32
    %buf = memref.alloc() : memref<4xf32>
    %is0 = arith.cmpi eq, %rank, %i0 : i32
    scf.if %is0 {
      mpi.recv(%buf, %tag, %i1, %world) : memref<4xf32>, i32, i32
      %u = memref.cast %buf : memref<4xf32> to memref<*xf32>
      func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    } else {
      gpu.set_default_device %c5
      mpi.send(%buf, %tag, %i0, %world) : memref<4xf32>, i32, i32
    }
    mpi.finalize
    return
  }
}
