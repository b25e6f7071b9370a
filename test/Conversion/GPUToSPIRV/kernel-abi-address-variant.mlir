// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi=buffer-device-address=never | FileCheck %s --check-prefix=NEVER

// Under the default `auto`, a kernel with a memref argument whose extent only
// the launch knows gets an address variant: a clone that binds those
// arguments by device address (the others as the kernel does), which the
// runtime launches when a buffer exceeds the device's descriptor range.
// CHECK-LABEL: gpu.func @scale(
// CHECK-SAME: %{{.*}}: memref<?xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: %{{.*}}: memref<16xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 16, args = [#kiln.arg<identity_memref, size = 4, rank = 1, push_constant_offset = 0>, #kiln.arg<memref, size = 4, rank = 1, binding = 1>, #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 12>]>
// CHECK-SAME: kiln.address_variant = @scale__kiln_by_address
// CHECK: gpu.func @scale__kiln_by_address(
// CHECK-SAME: %{{.*}}: memref<?xf32>,
// CHECK-SAME: %{{.*}}: memref<16xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 24, args = [#kiln.arg<strided_address, size = 4, rank = 1, push_constant_offset = 0>, #kiln.arg<memref, size = 4, rank = 1>, #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 20>]>
// CHECK-SAME: kiln.address_variant_of = @scale
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>
// NEVER-LABEL: gpu.func @scale(
// NEVER-NOT: address_variant
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader, Int64, PhysicalStorageBufferAddresses], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @scale(%a: memref<?xf32>, %b: memref<16xf32>, %k: f32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

// Kernels whose buffers all have a known extent, or whose dynamic buffers
// the program binds itself, need none; neither do target envs without
// addresses. A taken name gets a number.
// CHECK-LABEL: gpu.func @static(
// CHECK-NOT: kiln.address_variant
// CHECK-LABEL: gpu.func @bound(
// CHECK-NOT: kiln.address_variant
// CHECK-LABEL: gpu.func @taken(
// CHECK-SAME: kiln.address_variant = @taken__kiln_by_address1
// CHECK: gpu.func @taken__kiln_by_address1(
// CHECK-LABEL: gpu.func @no_addresses(
// CHECK-NOT: kiln.address_variant
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader, Int64, PhysicalStorageBufferAddresses], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @static(%a: memref<16x4xf32>, %b: memref<4xf32, strided<[2], offset: 1>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
    gpu.func @bound(%a: memref<?xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3)>}) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
    gpu.func @taken(%a: memref<4xf32, strided<[?], offset: ?>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
    gpu.func @taken__kiln_by_address() {
      gpu.return
    }
  }
  gpu.module @n attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @no_addresses(%a: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}
