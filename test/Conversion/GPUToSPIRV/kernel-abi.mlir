// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi=use-64bit-index | FileCheck %s --check-prefix=I64

// The workgroup size comes from the launch; memrefs get bindings in order;
// a static memref has no push constants, a dynamic one has
// {offset, size, stride} (its identity layout makes it an identity_memref,
// bound at its first element), and scalars follow at their natural
// alignment.
// CHECK-LABEL: gpu.func @scale
// CHECK-SAME: %{{.*}}: memref<8xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: %{{.*}}: memref<?xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-SAME: %{{.*}}: f32, %{{.*}}: index
// CHECK-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 20, args = [
// CHECK-SAME: #kiln.arg<memref, size = 4, rank = 1>,
// CHECK-SAME: #kiln.arg<identity_memref, size = 4, rank = 1, binding = 1, push_constant_offset = 0>,
// CHECK-SAME: #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 12>,
// CHECK-SAME: #kiln.arg<scalar, type = index, size = 4, push_constant_offset = 16>]>
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 2, 1]>
// I64-LABEL: gpu.func @scale
// I64-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 64, push_constant_size = 40, args = [
// I64-SAME: #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 24>,
// I64-SAME: #kiln.arg<scalar, type = index, size = 8, push_constant_offset = 32>]>
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @scale(%a: memref<8xf32>, %b: memref<?xf32>, %k: f32, %n: index) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<8xf32>, %b: memref<?xf32>, %k: f32, %n: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@scale blocks in (%n, %c1, %c1) threads in (%c64, %c2, %c1)
        args(%a : memref<8xf32>, %b : memref<?xf32>, %k : f32, %n : index)
    return
  }
}

// -----

// User-given attributes win; the others take their position among the
// buffers, moving past bindings that are already taken.
// Strided memrefs carry rank-many sizes and strides.
// CHECK-LABEL: gpu.func @given
// CHECK-SAME: %{{.*}}: memref<4xi32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-SAME: %{{.*}}: memref<4x4xf32, strided<[8, 1], offset: ?>> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2)>}
// CHECK-SAME: %{{.*}}: memref<4xi8> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3)>}
// CHECK-SAME: %{{.*}}: i1, %{{.*}}: f64
// CHECK-SAME: #kiln.arg<memref, size = 4, rank = 2, binding = 2, push_constant_offset = 0>
// CHECK-SAME: #kiln.arg<memref, size = 1, rank = 1, binding = 3>
// CHECK-SAME: #kiln.arg<scalar, type = i1, size = 4, push_constant_offset = 20>
// CHECK-SAME: #kiln.arg<scalar, type = f64, size = 8, push_constant_offset = 24>
// CHECK-SAME: ]>
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 4, 1]>
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @given(%a: memref<4xi32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>},
                    %b: memref<4x4xf32, strided<[8, 1], offset: ?>>, %c: memref<4xi8>, %p: i1, %d: f64) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 4, 1]>} {
      gpu.return
    }
  }
}

// -----

// Without launches, the block size outlining recorded is used.
// CHECK-LABEL: gpu.func @known
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 4, 1]>
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @known() kernel attributes {known_block_size = array<i32: 32, 4, 1>} {
      gpu.return
    }
  }
}
