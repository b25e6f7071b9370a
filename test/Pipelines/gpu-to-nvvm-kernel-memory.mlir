// RUN: kiln-compile %s --target=cuda --emit=ptx -o %t && FileCheck %s --input-file=%t/kernels.ptx

// Workgroup memory allocated in a kernel is the block's shared memory (not
// a per-thread malloc from the device heap, which the GPU then faults on),
// and the subgroup queries that convert-gpu-to-nvvm leaves out are warp
// arithmetic.
// CHECK: .shared .align 4 .b8 [[TILE:.*]][256];
// CHECK-NOT: malloc
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// The subgroup id: the linear thread index / 32; the number of subgroups:
// the block's threads rounded up to warps.
// CHECK: shr.u{{32|64}} {{.*}}, 5;
// CHECK: shr.u{{32|64}} {{.*}}, 5;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<8x8xf32>, %out: memref<8x8xf32>, %ids: memref<64x2xindex>) kernel attributes {known_block_size = array<i32: 8, 8, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tile = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
      %v = memref.load %in[%ty, %tx] : memref<8x8xf32>
      memref.store %v, %tile[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = memref.load %tile[%tx, %ty] : memref<8x8xf32, #gpu.address_space<workgroup>>
      memref.store %t, %out[%ty, %tx] : memref<8x8xf32>
      %c8 = arith.constant 8 : index
      %row = arith.muli %ty, %c8 : index
      %i = arith.addi %row, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %sg = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      memref.store %sg, %ids[%i, %c0] : memref<64x2xindex>
      memref.store %nsg, %ids[%i, %c1] : memref<64x2xindex>
      gpu.return
    }
  }
}
