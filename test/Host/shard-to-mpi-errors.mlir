// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-shard-to-mpi

// A shard op convert-shard-to-mpi has no pattern for is an error at the op
// (upstream's pass reports it as "failed to legalize" and succeeds).

shard.grid @grid0(shape = 2)
func.func @all_gather(%m: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_gather' has no lowering to MPI in MLIR 22; convert-shard-to-mpi lowers shard.all_reduce, shard.update_halo and the process, grid and shard-shape queries}}
  %r = shard.all_gather %m on @grid0 grid_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
