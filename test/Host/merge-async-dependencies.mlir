// RUN: kiln-opt %s --kiln-merge-async-dependencies | FileCheck %s

// CHECK-LABEL: func.func @two_streams
// CHECK: %[[S0:.*]] = gpu.wait async
// CHECK: %[[S1:.*]] = gpu.wait async
// CHECK: %[[J:.*]] = gpu.wait async [%[[S0]], %[[S1]]]
// CHECK-NEXT: %[[T:.*]] = gpu.launch_func async [%[[J]]] @m::@k
// CHECK: %[[J2:.*]] = gpu.wait async [%[[T]], %[[S1]]]
// CHECK-NEXT: gpu.memset async [%[[J2]]]
// One dependency, or a gpu.wait: left as they are.
// CHECK: gpu.launch_func async [%[[S0]]] @m::@k
// CHECK: gpu.wait [%{{.*}}, %{{.*}}]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @two_streams(%buf: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %f = arith.constant 0.0 : f32
    %s0 = gpu.wait async
    %s1 = gpu.wait async
    %t = gpu.launch_func async [%s0, %s1] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %u = gpu.memset async [%t, %s1] %buf, %f : memref<16xf32>, f32
    %v = gpu.launch_func async [%s0] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%u, %v]
    return
  }
}
