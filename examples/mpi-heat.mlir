// Heat diffusion along a rod of 128 cells, split over the ranks of an MPI
// job: each rank keeps its slice, with one halo cell on each side, in its
// device's memory, swaps halo cells with its neighbours (mpi.isend,
// mpi.irecv and mpi.wait on device memory, which Kiln stages through host
// memory) and advances its slice with a kernel, 40 steps. Then an
// allreduce gathers the rod on every rank and rank 0 prints its middle 16
// cells and the hottest cell's temperature.
//
//   mpirun -n 2 build/bin/kiln-vulkan-runner examples/mpi-heat.mlir
//   mpirun -n 4 build/bin/kiln-spirv-cpu-runner examples/mpi-heat.mlir
//   build/bin/kiln-compile examples/mpi-heat.mlir --emit=exe -o heat
//   mpirun -n 2 ./heat
//
// Every cell is computed the same way whatever the number of ranks, so 1, 2
// and 4 ranks print the same numbers (docs/mpi.md). The ranks must divide
// 128.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c56 = arith.constant 56 : index
    %c64 = arith.constant 64 : index
    %c72 = arith.constant 72 : index
    %cells = arith.constant 128 : index
    %steps = arith.constant 40 : index
    %tag = arith.constant 1 : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %hot = arith.constant 100.0 : f32

    mpi.init
    %world = mpi.comm_world : !mpi.comm
    %rank = mpi.comm_rank(%world) : i32
    %size = mpi.comm_size(%world) : i32
    %rank_i = arith.index_cast %rank : i32 to index
    %size_i = arith.index_cast %size : i32 to index
    %n = arith.divui %cells, %size_i : index
    %first = arith.muli %rank_i, %n : index
    %left = arith.subi %rank, %i1 : i32
    %right = arith.addi %rank, %i1 : i32
    %has_left = arith.cmpi sgt, %rank, %i0 : i32
    %has_right = arith.cmpi slt, %right, %size : i32

    // The slice with its halo cells: 100 degrees in cells 60..67 of the
    // rod, 0 elsewhere; the rod's ends stay at 0.
    %n2 = arith.addi %n, %c2 : index
    %init = memref.alloc(%n2) : memref<?xf32>
    scf.for %i = %c0 to %n2 step %c1 {
      memref.store %zero, %init[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c1 {
      %g = arith.addi %first, %i : index
      %c60 = arith.constant 60 : index
      %c68 = arith.constant 68 : index
      %ge = arith.cmpi uge, %g, %c60 : index
      %lt = arith.cmpi ult, %g, %c68 : index
      %in = arith.andi %ge, %lt : i1
      %t = arith.select %in, %hot, %zero : f32
      %k = arith.addi %i, %c1 : index
      memref.store %t, %init[%k] : memref<?xf32>
    }
    %u = gpu.alloc (%n2) : memref<?xf32>
    %v = gpu.alloc (%n2) : memref<?xf32>
    gpu.memcpy %u, %init : memref<?xf32>, memref<?xf32>
    gpu.memcpy %v, %init : memref<?xf32>, memref<?xf32>

    %blocks = arith.ceildivui %n, %c64 : index
    %last = arith.addi %n, %c1 : index
    %final:2 = scf.for %step = %c0 to %steps step %c1
        iter_args(%cur = %u, %next = %v) -> (memref<?xf32>, memref<?xf32>) {
      // Halo cells: my first cell to the left neighbour's right halo, my
      // last to the right neighbour's left halo.
      scf.if %has_left {
        %halo = memref.subview %cur[0] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1]>>
        %edge = memref.subview %cur[1] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: 1>>
        %r = mpi.irecv(%halo, %tag, %left, %world) : memref<1xf32, strided<[1]>>, i32, i32 -> !mpi.request
        %s = mpi.isend(%edge, %tag, %left, %world) : memref<1xf32, strided<[1], offset: 1>>, i32, i32 -> !mpi.request
        mpi.wait(%r) : !mpi.request
        mpi.wait(%s) : !mpi.request
      }
      scf.if %has_right {
        %halo = memref.subview %cur[%last] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
        %edge = memref.subview %cur[%n] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
        %r = mpi.irecv(%halo, %tag, %right, %world) : memref<1xf32, strided<[1], offset: ?>>, i32, i32 -> !mpi.request
        %s = mpi.isend(%edge, %tag, %right, %world) : memref<1xf32, strided<[1], offset: ?>>, i32, i32 -> !mpi.request
        mpi.wait(%r) : !mpi.request
        mpi.wait(%s) : !mpi.request
      }
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
        %base = arith.muli %bx, %c64 : index
        %i = arith.addi %base, %tx : index
        %inside = arith.cmpi ult, %i, %n : index
        scf.if %inside {
          %k = arith.addi %i, %c1 : index
          %k2 = arith.addi %i, %c2 : index
          %a = memref.load %cur[%i] : memref<?xf32>
          %b = memref.load %cur[%k] : memref<?xf32>
          %c = memref.load %cur[%k2] : memref<?xf32>
          %quarter = arith.constant 0.25 : f32
          %two = arith.constant 2.0 : f32
          %b2 = arith.mulf %two, %b : f32
          %ac = arith.addf %a, %c : f32
          %lap = arith.subf %ac, %b2 : f32
          %d = arith.mulf %quarter, %lap : f32
          %nb = arith.addf %b, %d : f32
          memref.store %nb, %next[%k] : memref<?xf32>
        }
        gpu.terminator
      }
      scf.yield %next, %cur : memref<?xf32>, memref<?xf32>
    }

    // The whole rod on every rank: each rank puts its slice in place, zeros
    // elsewhere, and the sum adds each cell to zeros only.
    %mine = memref.alloc(%n2) : memref<?xf32>
    gpu.memcpy %mine, %final#0 : memref<?xf32>, memref<?xf32>
    %rod = memref.alloc() : memref<128xf32>
    scf.for %g = %c0 to %cells step %c1 {
      memref.store %zero, %rod[%g] : memref<128xf32>
    }
    scf.for %i = %c0 to %n step %c1 {
      %g = arith.addi %first, %i : index
      %k = arith.addi %i, %c1 : index
      %t = memref.load %mine[%k] : memref<?xf32>
      memref.store %t, %rod[%g] : memref<128xf32>
    }
    mpi.allreduce(%rod, %rod, MPI_SUM, %world) : memref<128xf32>, memref<128xf32>
    %peak = memref.alloc() : memref<1xf32>
    %p = scf.for %g = %c0 to %cells step %c1 iter_args(%m = %zero) -> (f32) {
      %t = memref.load %rod[%g] : memref<128xf32>
      %mx = arith.maximumf %m, %t : f32
      scf.yield %mx : f32
    }
    memref.store %p, %peak[%c0] : memref<1xf32>

    %is0 = arith.cmpi eq, %rank, %i0 : i32
    scf.if %is0 {
      %middle = memref.subview %rod[56] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: 56>>
      %um = memref.cast %middle : memref<16xf32, strided<[1], offset: 56>> to memref<*xf32>
      func.call @printMemrefF32(%um) : (memref<*xf32>) -> ()
      %up = memref.cast %peak : memref<1xf32> to memref<*xf32>
      func.call @printMemrefF32(%up) : (memref<*xf32>) -> ()
    }
    gpu.dealloc %u : memref<?xf32>
    gpu.dealloc %v : memref<?xf32>
    mpi.finalize
    return
  }
}
