// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(gpu.module(kiln-workgroup-allocs-to-attributions))" | FileCheck %s

// Workgroup-memory allocations, at the top of the kernel or inside a loop,
// become workgroup attributions; their deallocations go.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<8x8xf32, #gpu.address_space<workgroup>>, %[[ROW:.*]] : memref<8xi32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: memref.store %{{.*}}, %[[TILE]]
// CHECK: memref.store %{{.*}}, %[[ROW]]
// Private and global allocations stay.
// CHECK: memref.alloca() : memref<4xf32>
gpu.module @m {
  gpu.func @k(%v: f32, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tile = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
    memref.store %v, %tile[%c0, %c0] : memref<8x8xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %n step %c1 {
      %row = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
      %z = arith.constant 0 : i32
      memref.store %z, %row[%c0] : memref<8xi32, #gpu.address_space<workgroup>>
    }
    %p = memref.alloca() : memref<4xf32>
    memref.store %v, %p[%c0] : memref<4xf32>
    memref.dealloc %tile : memref<8x8xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A shape known only at launch is refused at the allocation.
gpu.module @m {
  gpu.func @k(%n: index) kernel {
    // expected-error @+1 {{'memref.alloc' op of workgroup memory in kernel 'k' has type 'memref<?xf32, #gpu.address_space<workgroup>>'; workgroup memory needs a static shape and an identity layout (use gpu.dynamic_shared_memory for a size known at launch)}}
    %tile = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
