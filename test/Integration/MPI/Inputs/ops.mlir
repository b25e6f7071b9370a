// Every op of MLIR 22's mpi dialect on host memory, with what upstream's
// lowering gets wrong: a ring of isend/irecv/wait (not lowered upstream),
// comm_size, barrier, comm_split (an 8-byte Open MPI handle read as 4 bytes
// upstream), a strided column sent into a strided column, a 2-D allreduce
// (upstream counts only the first dimension), i1, index, f16 and complex
// elements, an in-place reduction, and retval_check/error_class. Every rank
// prints one line per result: "<what> <rank> ..." for 2 ranks.
module {
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF64(memref<*xf64>)
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %tag = arith.constant 5 : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %r = mpi.init : !mpi.retval
    %world = mpi.comm_world : !mpi.comm
    %rank = mpi.comm_rank(%world) : i32
    %size = mpi.comm_size(%world) : i32
    %rank_i = arith.index_cast %rank : i32 to index
    %size_i = arith.index_cast %size : i32 to index

    // [rank, size]
    %rs = memref.alloc() : memref<2xi32>
    memref.store %rank, %rs[%c0] : memref<2xi32>
    memref.store %size, %rs[%c1] : memref<2xi32>
    %urs = memref.cast %rs : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%urs) : (memref<*xi32>) -> ()

    // A ring: rank r sends [10r, 10r+1, 10r+2, 10r+3] to r+1 and receives
    // from r-1, both started before either completes.
    %next0 = arith.addi %rank, %i1 : i32
    %next = arith.remsi %next0, %size : i32
    %prev0 = arith.addi %rank, %size : i32
    %prev1 = arith.subi %prev0, %i1 : i32
    %prev = arith.remsi %prev1, %size : i32
    %out = memref.alloc() : memref<4xi64>
    %in = memref.alloc() : memref<4xi64>
    scf.for %i = %c0 to %c4 step %c1 {
      %c10 = arith.constant 10 : index
      %base = arith.muli %rank_i, %c10 : index
      %v = arith.addi %base, %i : index
      %vi = arith.index_cast %v : index to i64
      memref.store %vi, %out[%i] : memref<4xi64>
    }
    %rq_in = mpi.irecv(%in, %tag, %prev, %world) : memref<4xi64>, i32, i32 -> !mpi.request
    %rq_out = mpi.isend(%out, %tag, %next, %world) : memref<4xi64>, i32, i32 -> !mpi.request
    mpi.wait(%rq_in) : !mpi.request
    mpi.wait(%rq_out) : !mpi.request
    %uin = memref.cast %in : memref<4xi64> to memref<*xi64>
    call @printMemrefI64(%uin) : (memref<*xi64>) -> ()

    %rb = mpi.barrier(%world) -> !mpi.retval

    // comm_split: one color, keys reversed: the new rank is size - 1 - rank;
    // then [new rank, new size] summed over the new communicator.
    %key = arith.subi %size, %rank : i32
    %split = mpi.comm_split(%world, %i0, %key) : !mpi.comm
    %nrank = mpi.comm_rank(%split) : i32
    %nsize = mpi.comm_size(%split) : i32
    %ns = memref.alloc() : memref<2xi32>
    memref.store %nrank, %ns[%c0] : memref<2xi32>
    memref.store %nsize, %ns[%c1] : memref<2xi32>
    %unset = memref.cast %ns : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%unset) : (memref<*xi32>) -> ()

    // A 4x4 matrix m[i][j] = 100 * rank + 4i + j. Rank 0 sends its column 1;
    // rank 1 receives it into its column 2.
    %m = memref.alloc() : memref<4x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %c100 = arith.constant 100 : index
        %hundred3 = arith.muli %rank_i, %c100 : index
        %row = arith.muli %i, %c4 : index
        %e0 = arith.addi %hundred3, %row : index
        %e = arith.addi %e0, %j : index
        %ei = arith.index_cast %e : index to i32
        %ef = arith.sitofp %ei : i32 to f32
        memref.store %ef, %m[%i, %j] : memref<4x4xf32>
      }
    }
    %is0 = arith.cmpi eq, %rank, %i0 : i32
    %is1 = arith.cmpi eq, %rank, %i1 : i32
    scf.if %is0 {
      %col1 = memref.subview %m[0, 1] [4, 1] [1, 1] : memref<4x4xf32> to memref<4x1xf32, strided<[4, 1], offset: 1>>
      mpi.send(%col1, %tag, %i1, %world) : memref<4x1xf32, strided<[4, 1], offset: 1>>, i32, i32
    }
    scf.if %is1 {
      %col2 = memref.subview %m[0, 2] [4, 1] [1, 1] : memref<4x4xf32> to memref<4x1xf32, strided<[4, 1], offset: 2>>
      mpi.recv(%col2, %tag, %i0, %world) : memref<4x1xf32, strided<[4, 1], offset: 2>>, i32, i32
    }
    %um = memref.cast %m : memref<4x4xf32> to memref<*xf32>
    call @printMemrefF32(%um) : (memref<*xf32>) -> ()

    // A 2x3 allreduce: max over ranks of (rank + 1) * (3i + j).
    %a = memref.alloc() : memref<2x3xi32>
    %amax = memref.alloc() : memref<2x3xi32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %row = arith.muli %i, %c3 : index
        %e0 = arith.addi %row, %j : index
        %rp1 = arith.addi %rank_i, %c1 : index
        %e = arith.muli %e0, %rp1 : index
        %ei = arith.index_cast %e : index to i32
        memref.store %ei, %a[%i, %j] : memref<2x3xi32>
      }
    }
    mpi.allreduce(%a, %amax, MPI_MAX, %world) : memref<2x3xi32>, memref<2x3xi32>
    %uamax = memref.cast %amax : memref<2x3xi32> to memref<*xi32>
    call @printMemrefI32(%uamax) : (memref<*xi32>) -> ()

    // i1: logical or of [rank == 0, rank == 1, false]; index: sum of
    // [rank, 1, 1000].
    %flags = memref.alloc() : memref<3xi1>
    %false = arith.constant false
    memref.store %is0, %flags[%c0] : memref<3xi1>
    memref.store %is1, %flags[%c1] : memref<3xi1>
    memref.store %false, %flags[%c2] : memref<3xi1>
    %anyf = memref.alloc() : memref<3xi1>
    mpi.allreduce(%flags, %anyf, MPI_LOR, %world) : memref<3xi1>, memref<3xi1>
    %idx = memref.alloc() : memref<3xindex>
    %c1000 = arith.constant 1000 : index
    memref.store %rank_i, %idx[%c0] : memref<3xindex>
    memref.store %c1, %idx[%c1] : memref<3xindex>
    memref.store %c1000, %idx[%c2] : memref<3xindex>
    mpi.allreduce(%idx, %idx, MPI_SUM, %world) : memref<3xindex>, memref<3xindex>
    %mixed = memref.alloc() : memref<6xi64>
    scf.for %i = %c0 to %c3 step %c1 {
      %f = memref.load %anyf[%i] : memref<3xi1>
      %fi = arith.extui %f : i1 to i64
      memref.store %fi, %mixed[%i] : memref<6xi64>
      %x = memref.load %idx[%i] : memref<3xindex>
      %xi = arith.index_cast %x : index to i64
      %k = arith.addi %i, %c3 : index
      memref.store %xi, %mixed[%k] : memref<6xi64>
    }
    %umixed = memref.cast %mixed : memref<6xi64> to memref<*xi64>
    call @printMemrefI64(%umixed) : (memref<*xi64>) -> ()

    // f16 travels as 16-bit words: rank 0 sends [0.5, 1.5, 2.5] to rank 1.
    // complex<f32>: the sum over ranks of (rank + 1) * (1 + 2i).
    // f64 in place: the product over ranks of (rank + 2).
    %h = memref.alloc() : memref<3xf16>
    scf.for %i = %c0 to %c3 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f16
      %half = arith.constant 0.5 : f16
      %v = arith.addf %fi, %half : f16
      memref.store %v, %h[%i] : memref<3xf16>
    }
    scf.if %is0 {
      mpi.send(%h, %tag, %i1, %world) : memref<3xf16>, i32, i32
    }
    scf.if %is1 {
      %zero = arith.constant 0.0 : f16
      scf.for %i = %c0 to %c3 step %c1 {
        memref.store %zero, %h[%i] : memref<3xf16>
      }
      mpi.recv(%h, %tag, %i0, %world) : memref<3xf16>, i32, i32
    }
    %z = memref.alloc() : memref<1xcomplex<f32>>
    %rf0 = arith.sitofp %rank : i32 to f32
    %onef = arith.constant 1.0 : f32
    %rf = arith.addf %rf0, %onef : f32
    %twof = arith.constant 2.0 : f32
    %im = arith.mulf %rf, %twof : f32
    %zv = complex.create %rf, %im : complex<f32>
    memref.store %zv, %z[%c0] : memref<1xcomplex<f32>>
    %zsum = memref.alloc() : memref<1xcomplex<f32>>
    mpi.allreduce(%z, %zsum, MPI_SUM, %world) : memref<1xcomplex<f32>>, memref<1xcomplex<f32>>
    %d = memref.alloc() : memref<1xf64>
    %rd0 = arith.sitofp %rank : i32 to f64
    %twod = arith.constant 2.0 : f64
    %rd = arith.addf %rd0, %twod : f64
    memref.store %rd, %d[%c0] : memref<1xf64>
    mpi.allreduce(%d, %d, MPI_PROD, %world) : memref<1xf64>, memref<1xf64>
    %floats = memref.alloc() : memref<6xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %v = memref.load %h[%i] : memref<3xf16>
      %vf = arith.extf %v : f16 to f32
      memref.store %vf, %floats[%i] : memref<6xf32>
    }
    %zs = memref.load %zsum[%c0] : memref<1xcomplex<f32>>
    %zre = complex.re %zs : complex<f32>
    %zim = complex.im %zs : complex<f32>
    memref.store %zre, %floats[%c3] : memref<6xf32>
    memref.store %zim, %floats[%c4] : memref<6xf32>
    %dv = memref.load %d[%c0] : memref<1xf64>
    %dvf = arith.truncf %dv : f64 to f32
    %c5 = arith.constant 5 : index
    memref.store %dvf, %floats[%c5] : memref<6xf32>
    %ufloats = memref.cast %floats : memref<6xf32> to memref<*xf32>
    call @printMemrefF32(%ufloats) : (memref<*xf32>) -> ()

    // Return values: success, and its class is success.
    %ok = mpi.retval_check %rb = <MPI_SUCCESS> : i1
    %class = mpi.error_class %rb : !mpi.retval
    %ok2 = mpi.retval_check %class = <MPI_SUCCESS> : i1
    %bad = mpi.retval_check %class = <MPI_ERR_COMM> : i1
    %checks = memref.alloc() : memref<3xi32>
    %oki = arith.extui %ok : i1 to i32
    %ok2i = arith.extui %ok2 : i1 to i32
    %badi = arith.extui %bad : i1 to i32
    memref.store %oki, %checks[%c0] : memref<3xi32>
    memref.store %ok2i, %checks[%c1] : memref<3xi32>
    memref.store %badi, %checks[%c2] : memref<3xi32>
    %uchecks = memref.cast %checks : memref<3xi32> to memref<*xi32>
    call @printMemrefI32(%uchecks) : (memref<*xi32>) -> ()
    %f = mpi.finalize : !mpi.retval
    return
  }
}
