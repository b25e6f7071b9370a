// Sum of a large f32 array. Both kernels run a fixed grid of 256-wide
// workgroups, accumulate with a grid-stride loop and leave one partial sum
// per workgroup (summed on the host). `sum_workgroup` combines the
// workgroup's values with a tree in workgroup memory; `sum_subgroup` first
// reduces within each subgroup (gpu.subgroup_reduce: GroupNonUniform
// arithmetic on Vulkan, warp shuffles on CUDA) and combines the subgroups'
// results through workgroup memory.
gpu.module @reduce {
  gpu.func @sum_workgroup(%in: memref<?xf32>, %sum: memref<?xf32>)
      workgroup(%partial: memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %bid = gpu.block_id x
    %groups = gpu.grid_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %c256 : index
    %first = arith.addi %base, %tid : index
    %stride = arith.muli %groups, %c256 : index
    %n = memref.dim %in, %c0 : memref<?xf32>
    %acc = scf.for %i = %first to %n step %stride iter_args(%s = %zero) -> (f32) {
      %x = memref.load %in[%i] : memref<?xf32>
      %t = arith.addf %s, %x : f32
      scf.yield %t : f32
    }
    memref.store %acc, %partial[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %done = scf.while (%offset = %c128) : (index) -> index {
      %more = arith.cmpi ugt, %offset, %c0 : index
      scf.condition(%more) %offset : index
    } do {
    ^bb0(%o: index):
      %active = arith.cmpi ult, %tid, %o : index
      scf.if %active {
        %other = arith.addi %tid, %o : index
        %x = memref.load %partial[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %y = memref.load %partial[%other] : memref<256xf32, #gpu.address_space<workgroup>>
        %t = arith.addf %x, %y : f32
        memref.store %t, %partial[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %half = arith.shrui %o, %c1 : index
      scf.yield %half : index
    }
    %leader = arith.cmpi eq, %tid, %c0 : index
    scf.if %leader {
      %total = memref.load %partial[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %total, %sum[%bid] : memref<?xf32>
    }
    gpu.return
  }

  gpu.func @sum_subgroup(%in: memref<?xf32>, %sum: memref<?xf32>)
      workgroup(%partial: memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %bid = gpu.block_id x
    %groups = gpu.grid_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %c256 : index
    %first = arith.addi %base, %tid : index
    %stride = arith.muli %groups, %c256 : index
    %n = memref.dim %in, %c0 : memref<?xf32>
    %acc = scf.for %i = %first to %n step %stride iter_args(%s = %zero) -> (f32) {
      %x = memref.load %in[%i] : memref<?xf32>
      %t = arith.addf %s, %x : f32
      scf.yield %t : f32
    }
    %reduced = gpu.subgroup_reduce add %acc : (f32) -> f32
    // Invocation tid is lane tid % width of subgroup tid / width.
    %width = gpu.subgroup_size : index
    %lane = arith.remui %tid, %width : index
    %subgroup = arith.divui %tid, %width : index
    %count = arith.divui %c256, %width : index
    %lead = arith.cmpi eq, %lane, %c0 : index
    scf.if %lead {
      memref.store %reduced, %partial[%subgroup] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %leader = arith.cmpi eq, %tid, %c0 : index
    scf.if %leader {
      %total = scf.for %j = %c0 to %count step %c1 iter_args(%s = %zero) -> (f32) {
        %x = memref.load %partial[%j] : memref<256xf32, #gpu.address_space<workgroup>>
        %t = arith.addf %s, %x : f32
        scf.yield %t : f32
      }
      memref.store %total, %sum[%bid] : memref<?xf32>
    }
    gpu.return
  }
}
