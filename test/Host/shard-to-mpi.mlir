// RUN: kiln-opt %s --split-input-file --kiln-gpu-to-vulkan | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-shard-to-mpi | FileCheck %s --check-prefix=SHARD

// shard programs lower through the host pipeline: upstream's
// convert-shard-to-mpi to mpi ops (and a copy, a communicator split per
// all_reduce), kiln-mpi-to-llvm to calls of Kiln's MPI runtime. No shard op
// and no shard.grid is left; the calls name Open MPI (0).

// CHECK-NOT: dlti
// CHECK-NOT: shard.
// CHECK-LABEL: llvm.func @all_reduce
// CHECK: llvm.call @__kiln_mpi_comm_world
// CHECK: llvm.call @__kiln_mpi_comm_rank
// CHECK: %[[SPLIT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: llvm.call @__kiln_mpi_allreduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SPLIT]])
// CHECK-LABEL: llvm.func @update_halo
// CHECK-DAG: llvm.call @__kiln_mpi_send
// CHECK-DAG: llvm.call @__kiln_mpi_recv
// CHECK-NOT: shard.
// SHARD-NOT: shard.
// SHARD-LABEL: func.func @all_reduce
// SHARD: %[[WORLD:.*]] = mpi.comm_world
// SHARD: mpi.comm_split
// SHARD: mpi.allreduce(%[[BUF:.*]], %[[BUF]], MPI_SUM, %{{.*}}) : memref<8xf32>, memref<8xf32>
// SHARD-LABEL: func.func @update_halo
// SHARD-DAG: mpi.send
// SHARD-DAG: mpi.recv
module {
  shard.grid @grid0(shape = 2)
  func.func @all_reduce(%m: memref<8xf32>) -> memref<8xf32> {
    %r = shard.all_reduce %m on @grid0 grid_axes = [0] reduction = sum : memref<8xf32> -> memref<8xf32>
    return %r : memref<8xf32>
  }
  func.func @update_halo(%m: memref<10xf32>) -> memref<10xf32> {
    %r = shard.update_halo %m on @grid0 split_axes = [[0]] halo_sizes = [1, 1] : memref<10xf32>
    return %r : memref<10xf32>
  }
}

// -----

// Without shard ops, nothing changes (upstream's pass would fold the
// constants).
// SHARD-LABEL: func.func @no_shard
// SHARD-NEXT: arith.constant 1
// SHARD-NEXT: arith.constant 2
// SHARD-NEXT: arith.addi
func.func @no_shard() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
