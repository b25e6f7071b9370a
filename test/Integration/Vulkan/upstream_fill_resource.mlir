// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// A program written for upstream's mlir-runner Vulkan path: it declares the
// fillResource helpers with memref arguments and calls them by their plain
// names. Kiln's runtimes export them under the plain name and the
// _mlir_ciface_ name (docs/abi.md), so the program runs through every front
// door, here with the helpers of each rank and of f32, i32, i16, i8 and f16
// (an f16 value arrives in a floating-point register).

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [3.75, 3.75, 3.75, 3.75, 3.75, 3.75, 3.75, 3.75]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}-7, -7, -7],
// CHECK-NEXT: [-7, -7, -7]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [2, 2, 2] strides = [4, 2, 1] data =
// CHECK-NEXT: {{\[\[\[}}5, 5],
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [-300, -300, -300, -300]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [0.5, 0.5, 0.5]

module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @kernel_add(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %0 = gpu.block_id x
      %1 = memref.load %arg0[%0] : memref<8xf32>
      %2 = memref.load %arg1[%0] : memref<8xf32>
      %3 = arith.addf %1, %2 : f32
      memref.store %3, %arg2[%0] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %arg0 = memref.alloc() : memref<8xf32>
    %arg1 = memref.alloc() : memref<8xf32>
    %arg2 = memref.alloc() : memref<8xf32>
    %value0 = arith.constant 0.0 : f32
    %value1 = arith.constant 1.25 : f32
    %value2 = arith.constant 2.5 : f32
    %d0 = memref.cast %arg0 : memref<8xf32> to memref<?xf32>
    %d1 = memref.cast %arg1 : memref<8xf32> to memref<?xf32>
    %d2 = memref.cast %arg2 : memref<8xf32> to memref<?xf32>
    call @fillResource1DFloat(%d0, %value1) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%d1, %value2) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%d2, %value0) : (memref<?xf32>, f32) -> ()
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@kernel_add
        blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
    %p0 = memref.cast %arg2 : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%p0) : (memref<*xf32>) -> ()

    %i2 = memref.alloc() : memref<2x3xi32>
    %i2d = memref.cast %i2 : memref<2x3xi32> to memref<?x?xi32>
    %m7 = arith.constant -7 : i32
    call @fillResource2DInt(%i2d, %m7) : (memref<?x?xi32>, i32) -> ()
    %p1 = memref.cast %i2 : memref<2x3xi32> to memref<*xi32>
    call @printMemrefI32(%p1) : (memref<*xi32>) -> ()

    %i3 = memref.alloc() : memref<2x2x2xi8>
    %i3d = memref.cast %i3 : memref<2x2x2xi8> to memref<?x?x?xi8>
    %five = arith.constant 5 : i8
    call @fillResource3DInt8(%i3d, %five) : (memref<?x?x?xi8>, i8) -> ()
    %i3w = memref.alloc() : memref<2x2x2xi32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        scf.for %k = %c0 to %c2 step %c1 {
          %v = memref.load %i3[%i, %j, %k] : memref<2x2x2xi8>
          %w = arith.extsi %v : i8 to i32
          memref.store %w, %i3w[%i, %j, %k] : memref<2x2x2xi32>
        }
      }
    }
    %p2 = memref.cast %i3w : memref<2x2x2xi32> to memref<*xi32>
    call @printMemrefI32(%p2) : (memref<*xi32>) -> ()

    %s = memref.alloc() : memref<4xi16>
    %sd = memref.cast %s : memref<4xi16> to memref<?xi16>
    %m300 = arith.constant -300 : i16
    call @fillResource1DInt16(%sd, %m300) : (memref<?xi16>, i16) -> ()
    %sw = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %s[%i] : memref<4xi16>
      %w = arith.extsi %v : i16 to i32
      memref.store %w, %sw[%i] : memref<4xi32>
    }
    %p3 = memref.cast %sw : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%p3) : (memref<*xi32>) -> ()

    %h = memref.alloc() : memref<3xf16>
    %hd = memref.cast %h : memref<3xf16> to memref<?xf16>
    %half = arith.constant 0.5 : f16
    call @fillResource1DHalf(%hd, %half) : (memref<?xf16>, f16) -> ()
    %hw = memref.alloc() : memref<3xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %v = memref.load %h[%i] : memref<3xf16>
      %w = arith.extf %v : f16 to f32
      memref.store %w, %hw[%i] : memref<3xf32>
    }
    %p4 = memref.cast %hw : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%p4) : (memref<*xf32>) -> ()

    return
  }
  func.func private @fillResource1DFloat(%0 : memref<?xf32>, %1 : f32)
  func.func private @fillResource2DInt(%0 : memref<?x?xi32>, %1 : i32)
  func.func private @fillResource3DInt8(%0 : memref<?x?x?xi8>, %1 : i8)
  func.func private @fillResource1DInt16(%0 : memref<?xi16>, %1 : i16)
  func.func private @fillResource1DHalf(%0 : memref<?xf16>, %1 : f16)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
