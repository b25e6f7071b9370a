// A program written with MLIR's shard dialect on a grid of 2 processes:
// upstream's convert-shard-to-mpi lowers it to mpi ops inside Kiln's
// pipeline (it has no mpi.init: Kiln starts MPI at the first op). A kernel
// fills each rank's 8 cells plus a halo cell on each side, update_halo
// swaps the halo cells between the two ranks, and all_reduce sums [r + 1]
// over the grid (an Open MPI communicator from comm_split, which upstream's
// lowering read as 4 bytes of 8).
// REQUIRES: mpi, vulkan-runner
// RUN: %mpirun -n 2 --tag-output kiln-vulkan-runner %s --validate > %t.out
// RUN: grep '^\[1,0\]' %t.out | FileCheck %s --check-prefix=RANK0
// RUN: grep '^\[1,1\]' %t.out | FileCheck %s --check-prefix=RANK1
// RANK0: [100,  101,  102,  103,  104,  105,  106,  107,  108,  201]
// RANK0: [3,  3,  3,  3]
// RANK1: [108,  201,  202,  203,  204,  205,  206,  207,  208,  209]
// RANK1: [3,  3,  3,  3]
module attributes {gpu.container_module} {
  shard.grid @grid0(shape = 2)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %p = shard.process_linear_index on @grid0 : index
    %m = memref.alloc() : memref<10xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c10, %sy = %c1, %sz = %c1) {
      %c100 = arith.constant 100 : index
      %p1 = arith.addi %p, %c1 : index
      %h = arith.muli %p1, %c100 : index
      %v = arith.addi %h, %tx : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %m[%tx] : memref<10xf32>
      gpu.terminator
    }
    %h = shard.update_halo %m on @grid0 split_axes = [[0]] halo_sizes = [1, 1] : memref<10xf32>
    %uh = memref.cast %h : memref<10xf32> to memref<*xf32>
    call @printMemrefF32(%uh) : (memref<*xf32>) -> ()

    %s = memref.alloc() : memref<4xf32>
    %pi = arith.index_cast %p : index to i32
    %pf = arith.sitofp %pi : i32 to f32
    %one = arith.constant 1.0 : f32
    %v = arith.addf %pf, %one : f32
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %v, %s[%i] : memref<4xf32>
    }
    %r = shard.all_reduce %s on @grid0 grid_axes = [0] reduction = sum : memref<4xf32> -> memref<4xf32>
    %ur = memref.cast %r : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
    return
  }
}
