// Peak arithmetic rate: every invocation runs `iterations` rounds of 8
// dependent fused multiply-adds on each of 2 independent vector<4xf32>
// chains (64 FMAs, 128 flops per round: enough independent work to hide
// the FMA latency), then stores the lanes' sum so that nothing is dead.
gpu.module @fma {
  gpu.func @fma_chain(%out: memref<?xf32>, %iterations: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.uitofp %ii : i32 to f32
    %seed = vector.broadcast %fi : f32 to vector<4xf32>
    %x0 = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : vector<4xf32>
    %y0 = arith.constant dense<[4.0, 5.0, 6.0, 7.0]> : vector<4xf32>
    %a = arith.constant dense<0.999> : vector<4xf32>
    %b = arith.constant dense<0.001> : vector<4xf32>
    %xs = arith.addf %x0, %seed : vector<4xf32>
    %ys = arith.addf %y0, %seed : vector<4xf32>
    %n = arith.index_cast %iterations : i32 to index
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %xs, %y = %ys)
        -> (vector<4xf32>, vector<4xf32>) {
      %x1 = vector.fma %x, %a, %b : vector<4xf32>
      %y1 = vector.fma %y, %a, %b : vector<4xf32>
      %x2 = vector.fma %x1, %a, %b : vector<4xf32>
      %y2 = vector.fma %y1, %a, %b : vector<4xf32>
      %x3 = vector.fma %x2, %a, %b : vector<4xf32>
      %y3 = vector.fma %y2, %a, %b : vector<4xf32>
      %x4 = vector.fma %x3, %a, %b : vector<4xf32>
      %y4 = vector.fma %y3, %a, %b : vector<4xf32>
      %x5 = vector.fma %x4, %a, %b : vector<4xf32>
      %y5 = vector.fma %y4, %a, %b : vector<4xf32>
      %x6 = vector.fma %x5, %a, %b : vector<4xf32>
      %y6 = vector.fma %y5, %a, %b : vector<4xf32>
      %x7 = vector.fma %x6, %a, %b : vector<4xf32>
      %y7 = vector.fma %y6, %a, %b : vector<4xf32>
      %x8 = vector.fma %x7, %a, %b : vector<4xf32>
      %y8 = vector.fma %y7, %a, %b : vector<4xf32>
      scf.yield %x8, %y8 : vector<4xf32>, vector<4xf32>
    }
    %s = arith.addf %r#0, %r#1 : vector<4xf32>
    %total = vector.reduction <add>, %s : vector<4xf32> into f32
    %c0_ = arith.constant 0 : index
    %n_out = memref.dim %out, %c0_ : memref<?xf32>
    %in = arith.cmpi ult, %i, %n_out : index
    scf.if %in {
      memref.store %total, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}
