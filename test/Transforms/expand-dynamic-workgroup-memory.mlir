// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(gpu.module(kiln-expand-kernel-ops{target=spirv}))" | FileCheck %s

// gpu.dynamic_shared_memory on SPIR-V: a workgroup attribution of 16777213
// (the marker the serializer makes a specialization constant) elements of
// the views' element type; a view's accesses index it at byte offset / 4
// plus the row-major index; the kernel records the element size.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%[[MEM:.*]] : memref<16777213xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: kiln_dynamic_workgroup_element_bytes = 4 : i32
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK-NOT: memref.view
// CHECK: memref.store %{{.*}}, %[[MEM]][%{{.*}}] : memref<16777213xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[MEM]][%{{.*}}] : memref<16777213xf32, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @k(%out : memref<8x8xf32>) kernel {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c64 = arith.constant 64 : index
    %v = memref.view %m[%c64][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x8xf32, #gpu.address_space<workgroup>>
    %i = gpu.thread_id x
    %j = gpu.thread_id y
    %f = arith.constant 1.0 : f32
    memref.store %f, %v[%i, %j] : memref<8x8xf32, #gpu.address_space<workgroup>>
    %x = memref.load %v[%j, %i] : memref<8x8xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%i, %j] : memref<8x8xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @two_types() kernel {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %a = memref.view %m[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{views dynamic workgroup memory as 'i16' where another view of the kernel has 'f32'}}
    %b = memref.view %m[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi16, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    %h = arith.constant 1 : i16
    memref.store %f, %a[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %h, %b[%c0] : memref<4xi16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @misaligned() kernel {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{views dynamic workgroup memory at byte 2, not a multiple of its 4-byte elements}}
    %a = memref.view %m[%c2][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%c2] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @bytes(%out : memref<1xi8>) kernel {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'memref.load' op uses gpu.dynamic_shared_memory other than through memref.view}}
    %x = memref.load %m[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c0] : memref<1xi8>
    gpu.return
  }
}
