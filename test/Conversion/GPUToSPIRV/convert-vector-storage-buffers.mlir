// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// A storage buffer whose vector accesses are aligned (provably, or by their
// `alignment` attribute) is an array of vectors, as glslc emits for
// `buffer { vec4 data[]; }`: a vector access is one access chain and one
// four-wide load or store, a scalar access a chain into the component. The
// kernel ABI records the vector's bytes as the argument's base alignment,
// which the runtime checks.

// CHECK: spirv.module
// CHECK-LABEL: spirv.func @buffers
// CHECK-SAME: !spirv.ptr<!spirv.struct<(!spirv.array<8 x !spirv.array<2 x vector<4xf32>, stride=16>, stride=32> [0])>, StorageBuffer> {kiln.vector_components, spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-SAME: !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer> {kiln.vector_components, spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2)>}
// The vector load: element (row * N + col) is vector (row * N + col) >> 2.
// CHECK: %[[V:.*]] = spirv.ShiftRightArithmetic
// CHECK: spirv.AccessChain %{{.*}}[%{{.*}}, %[[V]]] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<vector<4xf32>, StorageBuffer>
// CHECK: spirv.Load "StorageBuffer" %{{.*}} : vector<4xf32>
// A scalar store into the same buffer: vector and component.
// CHECK: spirv.AccessChain %{{.*}} -> !spirv.ptr<f32, StorageBuffer>
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : f32
// The static buffer's vector store: [0, row, col / 4].
// CHECK: spirv.AccessChain %{{.*}} -> !spirv.ptr<vector<4xf32>, StorageBuffer>
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : vector<4xf32>
// The unaligned one: four scalar loads.
// CHECK-COUNT-4: spirv.Load "StorageBuffer" %{{.*}} : f32

// The original kernel, which the host's launches and the container see.
// CHECK-LABEL: gpu.func @buffers
// CHECK-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 32, args = [
// The flat buffer of memref<?x?xf32>, read as vec4 by its alignment.
// CHECK-SAME: #kiln.arg<identity_memref, size = 4, rank = 2, push_constant_offset = 0, base_alignment = 16>,
// A static buffer whose vector stores are provably aligned.
// CHECK-SAME: #kiln.arg<memref, size = 4, rank = 2, binding = 1, base_alignment = 16>,
// A vector load at an index not known to be aligned: scalars.
// CHECK-SAME: #kiln.arg<identity_memref, size = 4, rank = 1, binding = 2, push_constant_offset = 20>]>
// CHECK-NOT: base_alignment

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @buffers(%a: memref<?x?xf32>, %s: memref<8x8xf32>, %u: memref<?xf32>)
        kernel attributes {known_block_size = array<i32: 2, 8, 1>} {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %col = arith.muli %tx, %c4 : index
      %v = vector.load %a[%ty, %col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
      %e = vector.extract %v[0] : f32 from vector<4xf32>
      memref.store %e, %a[%ty, %tx] : memref<?x?xf32>
      vector.store %v, %s[%ty, %col] : memref<8x8xf32>, vector<4xf32>
      %w = vector.load %u[%ty] : memref<?xf32>, vector<4xf32>
      vector.store %w, %s[%tx, %c4] : memref<8x8xf32>, vector<4xf32>
      gpu.return
    }
  }

  func.func @main(%a: memref<?x?xf32>, %s: memref<8x8xf32>, %u: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @m::@buffers blocks in (%c1, %c1, %c1) threads in (%c2, %c8, %c1) args(%a : memref<?x?xf32>, %s : memref<8x8xf32>, %u : memref<?xf32>)
    return
  }
}
