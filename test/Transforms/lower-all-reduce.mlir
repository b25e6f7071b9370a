// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(kiln-lower-all-reduce))' | FileCheck %s

// A power-of-two workgroup: one buffer of its size, log2(64) = 6 halving
// steps without a bound check, the result read from element 0.
// CHECK-LABEL: gpu.func @pow2
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[BUF]][%[[TID:.*]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[LT:.*]] = arith.cmpi ult, %[[TID]], %[[C32]]
// CHECK-NEXT: scf.if %[[LT]] {
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK-COUNT-5: scf.if
// CHECK: %[[R:.*]] = memref.load %[[BUF]][%c0]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %[[R]]
gpu.module @m {
  gpu.func @pow2(%a: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<64xf32>
    %r = gpu.all_reduce add %x uniform {} : (f32) -> (f32)
    memref.store %r, %a[%i] : memref<64xf32>
    gpu.return
  }
}

// -----

// 100 invocations in a 2-D workgroup: steps from 64 down, each guarding that
// the partner is inside the workgroup; two reductions of one type share the
// buffer, one of another type gets its own; a body is inlined.
// CHECK-LABEL: gpu.func @odd
// CHECK-SAME: workgroup(%[[I:.*]] : memref<100xi32, #gpu.address_space<workgroup>>, %[[F:.*]] : memref<100xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[P:.*]] = arith.addi %[[T:.*]], %[[C64]]
// CHECK: arith.cmpi ult, %[[T]], %[[C64]]
// CHECK: arith.cmpi ult, %[[P]], %{{.*}}
// CHECK: arith.minsi
// CHECK: memref.store %{{.*}}, %[[I]]
// CHECK: arith.ori
// CHECK: memref.store %{{.*}}, %[[F]]
// CHECK: arith.maximumf
// CHECK-NOT: gpu.all_reduce
gpu.module @m {
  gpu.func @odd(%a: memref<100xi32>, %b: memref<100xf32>) kernel attributes {known_block_size = array<i32: 50, 2, 1>} {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<100xi32>
    %r = gpu.all_reduce minsi %x {} : (i32) -> (i32)
    %s = gpu.all_reduce %r {
    ^bb(%l : i32, %m : i32):
      %o = arith.ori %l, %m : i32
      gpu.yield %o : i32
    } : (i32) -> (i32)
    memref.store %s, %a[%i] : memref<100xi32>
    %y = memref.load %b[%i] : memref<100xf32>
    %t = gpu.all_reduce maximumf %y {} : (f32) -> (f32)
    memref.store %t, %b[%i] : memref<100xf32>
    gpu.return
  }
}

// -----

// A workgroup size known only at launch (CUDA): a buffer of
// max-invocations elements, steps from 512, the size from gpu.block_dim.
// CHECK-LABEL: gpu.func @dynamic
// CHECK-SAME: workgroup(%{{.*}} : memref<1024xi32, #gpu.address_space<workgroup>>)
// CHECK-DAG: gpu.block_dim z
// CHECK-DAG: arith.constant 512 : index
gpu.module @m {
  gpu.func @dynamic(%a: memref<?xi32>) kernel {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<?xi32>
    %r = gpu.all_reduce xor %x {} : (i32) -> (i32)
    memref.store %r, %a[%i] : memref<?xi32>
    gpu.return
  }
}

// -----

// The entry point ABI fixes the size where there is no known_block_size.
// CHECK-LABEL: gpu.func @abi
// CHECK-SAME: workgroup(%{{.*}} : memref<8xi32, #gpu.address_space<workgroup>>)
gpu.module @m {
  gpu.func @abi(%a: memref<8xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<8xi32>
    %r = gpu.all_reduce mul %x {} : (i32) -> (i32)
    memref.store %r, %a[%i] : memref<8xi32>
    gpu.return
  }
}
