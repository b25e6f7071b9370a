// An SPMD program with a kernel on every rank: rank r squares its slice of
// x (x[i] = 8r + i) into device memory, an allreduce sums the ranks' squares
// element by element in device memory, and rank 0 sends its own squares,
// also from device memory, to rank 1. Every rank prints the sums; rank 1
// also prints what it received (0, 1, 4, ... 49).
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tag = arith.constant 7 : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    mpi.init
    %world = mpi.comm_world : !mpi.comm
    %rank = mpi.comm_rank(%world) : i32
    %rank_index = arith.index_cast %rank : i32 to index

    %x = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %base = arith.muli %rank_index, %c8 : index
      %g = arith.addi %base, %i : index
      %gi = arith.index_cast %g : index to i32
      %gf = arith.sitofp %gi : i32 to f32
      memref.store %gf, %x[%i] : memref<8xf32>
    }
    %squares = gpu.alloc () : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<8xf32>
      %s = arith.mulf %v, %v : f32
      memref.store %s, %squares[%tx] : memref<8xf32>
      gpu.terminator
    }

    // Device memory in both buffers: Kiln stages it through host memory.
    %sums = gpu.alloc () : memref<8xf32>
    mpi.allreduce(%squares, %sums, MPI_SUM, %world)
        : memref<8xf32>, memref<8xf32>
    %host = memref.alloc() : memref<8xf32>
    gpu.memcpy %host, %sums : memref<8xf32>, memref<8xf32>
    %uh = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%uh) : (memref<*xf32>) -> ()

    %is0 = arith.cmpi eq, %rank, %zero : i32
    %is1 = arith.cmpi eq, %rank, %one : i32
    scf.if %is0 {
      mpi.send(%squares, %tag, %one, %world) : memref<8xf32>, i32, i32
    }
    scf.if %is1 {
      %got = gpu.alloc () : memref<8xf32>
      mpi.recv(%got, %tag, %zero, %world) : memref<8xf32>, i32, i32
      %back = memref.alloc() : memref<8xf32>
      gpu.memcpy %back, %got : memref<8xf32>, memref<8xf32>
      %ub = memref.cast %back : memref<8xf32> to memref<*xf32>
      func.call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
      gpu.dealloc %got : memref<8xf32>
    }
    gpu.dealloc %squares : memref<8xf32>
    gpu.dealloc %sums : memref<8xf32>
    mpi.finalize
    return
  }
}
