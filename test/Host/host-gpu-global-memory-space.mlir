// RUN: kiln-opt %s --kiln-host-gpu-global-memory-space | FileCheck %s

// Host types lose #gpu.address_space<global>; GPU modules keep theirs, and
// other memory spaces are left alone.

// CHECK-LABEL: func.func @host(
// CHECK-SAME: %{{.*}}: memref<16xf32>, %{{.*}}: memref<*xi32>, %{{.*}}: memref<4xf32, 1>) -> memref<16xf32>
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: memref.subview %{{.*}}[2] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 2>>
// CHECK: gpu.module @kernels
// CHECK: gpu.func @k(%{{.*}}: memref<16xf32, #gpu.address_space<global>>)
module attributes {gpu.container_module} {
  func.func @host(%a: memref<16xf32, #gpu.address_space<global>>,
                  %u: memref<*xi32, #gpu.address_space<global>>,
                  %other: memref<4xf32, 1>)
      -> memref<16xf32, #gpu.address_space<global>> {
    %b = memref.alloc() : memref<16xf32, #gpu.address_space<global>>
    %s = memref.subview %b[2] [4] [1] : memref<16xf32, #gpu.address_space<global>> to memref<4xf32, strided<[1], offset: 2>, #gpu.address_space<global>>
    return %b : memref<16xf32, #gpu.address_space<global>>
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32, #gpu.address_space<global>>) kernel {
      gpu.return
    }
  }
}
