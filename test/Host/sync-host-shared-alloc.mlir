// RUN: kiln-opt %s --kiln-sync-host-shared-alloc | FileCheck %s

// gpu-to-llvm lowers host_shared allocations only in their synchronous form.
// CHECK-LABEL: func.func @shared
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: gpu.wait [%[[T0]]]
// CHECK-NEXT: %[[M:.*]] = gpu.alloc  host_shared (%{{.*}}) : memref<?xf32>
// CHECK-NEXT: %[[T1:.*]] = gpu.wait async
// CHECK-NEXT: %[[T2:.*]] = gpu.memset async [%[[T1]]] %[[M]]
// CHECK: %[[D:.*]], %{{.*}} = gpu.alloc async [%[[T2]]] (%{{.*}}) : memref<?xf32>
func.func @shared(%n: index, %v: f32) {
  %t0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%t0] host_shared (%n) : memref<?xf32>
  %t2 = gpu.memset async [%t1] %m, %v : memref<?xf32>, f32
  %d, %t3 = gpu.alloc async [%t2] (%n) : memref<?xf32>
  gpu.wait [%t3]
  return
}
