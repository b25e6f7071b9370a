// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-shard-to-mpi

// A shard op convert-shard-to-mpi has no pattern for is an error at the op
// (upstream's pass reports it as "failed to legalize" and succeeds).

shard.grid @grid0(shape = 2)
func.func @all_gather(%m: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_gather' has no lowering to MPI in MLIR 22; convert-shard-to-mpi lowers shard.all_reduce, shard.update_halo and the process, grid and shard-shape queries}}
  %r = shard.all_gather %m on @grid0 grid_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Axes and dimensions upstream's patterns index with, unchecked by shard's
// verifiers: each is an error at the op, not a read past an array (a
// fuzzed update_halo naming grid axis 1 of a 1-D grid crashed in
// upstream's neighbors_linear_indices pattern).

shard.grid @grid1(shape = 2)
func.func @halo_axis(%m: memref<10xf32>) -> memref<10xf32> {
  // expected-error @+1 {{'shard.update_halo' split_axes names grid axis 1, but @grid1 has 1 axis}}
  %r = shard.update_halo %m on @grid1 split_axes = [[1]] halo_sizes = [1, 1] : memref<10xf32>
  return %r : memref<10xf32>
}

// -----

shard.grid @grid2(shape = 2x2)
func.func @neighbors_axis(%i: index, %j: index) -> (index, index) {
  // expected-error @+1 {{'shard.neighbors_linear_indices' split_axes names grid axis 2, but @grid2 has 2 axes}}
  %d, %u = shard.neighbors_linear_indices on @grid2[%i, %j] split_axes = [2] : index, index
  return %d, %u : index, index
}

// -----

shard.grid @grid3(shape = 2x2)
func.func @neighbors_device(%i: index) -> (index, index) {
  // expected-error @+1 {{'shard.neighbors_linear_indices' has 1 device indices for @grid3 of 2 axes}}
  %d, %u = shard.neighbors_linear_indices on @grid3[%i] split_axes = [0] : index, index
  return %d, %u : index, index
}

// -----

shard.grid @grid4(shape = 2)
func.func @halo_dims(%m: memref<10xf32>) -> memref<10xf32> {
  // expected-error @+1 {{'shard.update_halo' splits 2 dimensions of a rank-1 value}}
  %r = shard.update_halo %m on @grid4 split_axes = [[], [0]] halo_sizes = [1, 1] : memref<10xf32>
  return %r : memref<10xf32>
}

// -----

shard.grid @grid5(shape = 2)
func.func @halo_sizes(%m: memref<10xf32>) -> memref<10xf32> {
  // expected-error @+1 {{'shard.update_halo' has 1 halo sizes for 1 split dimensions; it needs two per split dimension (below and above)}}
  %r = shard.update_halo %m on @grid5 split_axes = [[0]] halo_sizes = [1] : memref<10xf32>
  return %r : memref<10xf32>
}

// -----

// Collectives' axes are shard's own verifier's to check.
shard.grid @grid6(shape = 4)
func.func @reduce_axis(%m: memref<8xf32>) -> memref<8xf32> {
  // expected-error @+1 {{0-based grid axis index 3 is out of bounds}}
  %r = shard.all_reduce %m on @grid6 grid_axes = [3] reduction = sum : memref<8xf32> -> memref<8xf32>
  return %r : memref<8xf32>
}
