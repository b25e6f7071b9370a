// MPI on device memory without kernels: each rank copies [r, r + 1, ...]
// into gpu.alloc memory, the ranks sum it in place there, rank 0 sends its
// device memory to rank 1's, and each rank copies the results back and
// prints them.
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %tag = arith.constant 9 : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    mpi.init
    %world = mpi.comm_world : !mpi.comm
    %rank = mpi.comm_rank(%world) : i32
    %rank_i = arith.index_cast %rank : i32 to index
    %host = memref.alloc() : memref<6xf32>
    scf.for %i = %c0 to %c6 step %c1 {
      %v = arith.addi %rank_i, %i : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %host[%i] : memref<6xf32>
    }
    %dev = gpu.alloc () : memref<6xf32>
    gpu.memcpy %dev, %host : memref<6xf32>, memref<6xf32>
    %mine = gpu.alloc () : memref<6xf32>
    gpu.memcpy %mine, %host : memref<6xf32>, memref<6xf32>
    mpi.allreduce(%dev, %dev, MPI_SUM, %world) : memref<6xf32>, memref<6xf32>
    gpu.memcpy %host, %dev : memref<6xf32>, memref<6xf32>
    %u = memref.cast %host : memref<6xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %is0 = arith.cmpi eq, %rank, %i0 : i32
    scf.if %is0 {
      mpi.send(%mine, %tag, %i1, %world) : memref<6xf32>, i32, i32
    } else {
      mpi.recv(%mine, %tag, %i0, %world) : memref<6xf32>, i32, i32
      gpu.memcpy %host, %mine : memref<6xf32>, memref<6xf32>
      func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    }
    gpu.dealloc %dev : memref<6xf32>
    gpu.dealloc %mine : memref<6xf32>
    mpi.finalize
    return
  }
}
