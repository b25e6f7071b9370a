// RUN: kiln-opt %s --kiln-prepare-launches --split-input-file | FileCheck %s

// A tiled 2-d loop nest mapped to blocks and threads (what
// --gpu-map-parallel-loops writes) becomes a gpu.launch whose block size,
// an affine.apply of constants in upstream's conversion, is a constant.
// CHECK-LABEL: func.func @mapped
// CHECK: affine.apply #{{.*}}(%c4)
// CHECK: affine.apply #{{.*}}(%c4)
// CHECK: %[[X:.*]] = arith.constant 4 : index
// CHECK: %[[Y:.*]] = arith.constant 4 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[X]], %{{.*}} = %[[Y]], %{{.*}} = %c1
// CHECK-NOT: scf.parallel
func.func @mapped(%n : index, %m : index, %in : memref<?x?xf32>, %out : memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c4, %c4) {
    scf.parallel (%ti, %tj) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
      %r = arith.addi %i, %ti : index
      %c = arith.addi %j, %tj : index
      %v = memref.load %in[%r, %c] : memref<?x?xf32>
      memref.store %v, %out[%c, %r] : memref<?x?xf32>
    } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>,
                  #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>,
                #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// An unmapped loop stays on the host.
// CHECK-LABEL: func.func @unmapped
// CHECK: scf.parallel
// CHECK-NOT: gpu.launch
func.func @unmapped(%n : index, %out : memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// Launch sizes computed from constants (affine.apply, arith) are folded;
// a size from an argument is left as it is.
// CHECK-LABEL: func.func @folded
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %arg0, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C32]], %{{.*}} = %[[C8]],
func.func @folded(%n : index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %x = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%c16)[%c2]
  %y = arith.muli %c2, %c2 : index
  %y2 = arith.addi %y, %y : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %x, %sy = %y2, %sz = %c1) {
    gpu.terminator
  }
  return
}
