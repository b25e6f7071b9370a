// BabelStream's kernels (copy, mul, add, triad, dot), written once for every
// element type: kiln-bench builds this file as is (f32) and with the alias
// below rewritten to f64. One element per invocation, 256 invocations per
// workgroup, bounds-checked so that any --size works. Workgroups are
// numbered across a 2-D grid (y * grid_dim.x + x), since Vulkan only
// guarantees 65535 workgroups along x; `dot` runs a fixed
// grid with a grid-stride loop and leaves one partial sum per workgroup
// (summed on the host, as BabelStream does). The scalar is BabelStream's
// startScalar, a constant in every variant of the benchmark.
!T = f32

gpu.module @stream {
  gpu.func @copy(%a: memref<?x!T>, %c: memref<?x!T>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %row = arith.muli %by, %gx : index
    %bid = arith.addi %row, %bx : index
    %tid = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %n = memref.dim %a, %c0 : memref<?x!T>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %v = memref.load %a[%i] : memref<?x!T>
      memref.store %v, %c[%i] : memref<?x!T>
    }
    gpu.return
  }

  // b = scalar * c
  gpu.func @mul(%b: memref<?x!T>, %c: memref<?x!T>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %scalar = arith.constant 0.4 : !T
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %row = arith.muli %by, %gx : index
    %bid = arith.addi %row, %bx : index
    %tid = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %n = memref.dim %b, %c0 : memref<?x!T>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %v = memref.load %c[%i] : memref<?x!T>
      %r = arith.mulf %scalar, %v : !T
      memref.store %r, %b[%i] : memref<?x!T>
    }
    gpu.return
  }

  // c = a + b
  gpu.func @add(%a: memref<?x!T>, %b: memref<?x!T>, %c: memref<?x!T>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %row = arith.muli %by, %gx : index
    %bid = arith.addi %row, %bx : index
    %tid = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %n = memref.dim %a, %c0 : memref<?x!T>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %x = memref.load %a[%i] : memref<?x!T>
      %y = memref.load %b[%i] : memref<?x!T>
      %r = arith.addf %x, %y : !T
      memref.store %r, %c[%i] : memref<?x!T>
    }
    gpu.return
  }

  // a = b + scalar * c
  gpu.func @triad(%a: memref<?x!T>, %b: memref<?x!T>, %c: memref<?x!T>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %scalar = arith.constant 0.4 : !T
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %row = arith.muli %by, %gx : index
    %bid = arith.addi %row, %bx : index
    %tid = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %n = memref.dim %a, %c0 : memref<?x!T>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %y = memref.load %b[%i] : memref<?x!T>
      %z = memref.load %c[%i] : memref<?x!T>
      %sz = arith.mulf %scalar, %z : !T
      %r = arith.addf %y, %sz : !T
      memref.store %r, %a[%i] : memref<?x!T>
    }
    gpu.return
  }

  // sum[workgroup] = the workgroup's share of sum(a * b)
  gpu.func @dot(%a: memref<?x!T>, %b: memref<?x!T>, %sum: memref<?x!T>)
      workgroup(%partial: memref<256x!T, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : !T
    %bid = gpu.block_id x
    %groups = gpu.grid_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %c256 : index
    %first = arith.addi %base, %tid : index
    %stride = arith.muli %groups, %c256 : index
    %n = memref.dim %a, %c0 : memref<?x!T>
    %acc = scf.for %i = %first to %n step %stride iter_args(%s = %zero) -> (!T) {
      %x = memref.load %a[%i] : memref<?x!T>
      %y = memref.load %b[%i] : memref<?x!T>
      %p = arith.mulf %x, %y : !T
      %t = arith.addf %s, %p : !T
      scf.yield %t : !T
    }
    memref.store %acc, %partial[%tid] : memref<256x!T, #gpu.address_space<workgroup>>
    gpu.barrier
    %done = scf.while (%offset = %c128) : (index) -> index {
      %more = arith.cmpi ugt, %offset, %c0 : index
      scf.condition(%more) %offset : index
    } do {
    ^bb0(%o: index):
      %active = arith.cmpi ult, %tid, %o : index
      scf.if %active {
        %other = arith.addi %tid, %o : index
        %x = memref.load %partial[%tid] : memref<256x!T, #gpu.address_space<workgroup>>
        %y = memref.load %partial[%other] : memref<256x!T, #gpu.address_space<workgroup>>
        %t = arith.addf %x, %y : !T
        memref.store %t, %partial[%tid] : memref<256x!T, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %half = arith.shrui %o, %c1 : index
      scf.yield %half : index
    }
    %leader = arith.cmpi eq, %tid, %c0 : index
    scf.if %leader {
      %total = memref.load %partial[%c0] : memref<256x!T, #gpu.address_space<workgroup>>
      memref.store %total, %sum[%bid] : memref<?x!T>
    }
    gpu.return
  }
}
