// out = transpose(in) for an R x C f32 matrix, through a 32 x 33 tile in
// workgroup memory (the extra column keeps the column reads free of bank
// conflicts): workgroups of 32 x 8 invocations, four rows each, so that both
// the reads of `in` and the writes of `out` are contiguous along x.
gpu.module @transpose {
  gpu.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
      workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %rows = memref.dim %in, %c0 : memref<?x?xf32>
    %cols = memref.dim %in, %c1 : memref<?x?xf32>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %bx32 = arith.muli %bx, %c32 : index
    %by32 = arith.muli %by, %c32 : index
    // Read rows by32 + ty + j of `in`, columns bx32 + tx.
    %x = arith.addi %bx32, %tx : index
    %xin = arith.cmpi ult, %x, %cols : index
    scf.for %j = %c0 to %c32 step %c8 {
      %r = arith.addi %ty, %j : index
      %y = arith.addi %by32, %r : index
      %yin = arith.cmpi ult, %y, %rows : index
      %ok = arith.andi %xin, %yin : i1
      scf.if %ok {
        %v = memref.load %in[%y, %x] : memref<?x?xf32>
        memref.store %v, %tile[%r, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    // Write rows bx32 + ty + j of `out`, columns by32 + tx.
    %ox = arith.addi %by32, %tx : index
    %oxin = arith.cmpi ult, %ox, %rows : index
    scf.for %j = %c0 to %c32 step %c8 {
      %r = arith.addi %ty, %j : index
      %oy = arith.addi %bx32, %r : index
      %oyin = arith.cmpi ult, %oy, %cols : index
      %ok = arith.andi %oxin, %oyin : i1
      scf.if %ok {
        %v = memref.load %tile[%tx, %r] : memref<32x33xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%oy, %ox] : memref<?x?xf32>
      }
    }
    gpu.return
  }
}
