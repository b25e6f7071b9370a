// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi --verify-diagnostics | FileCheck %s

// Under the default `auto`, a static buffer above the 128 MiB every Vulkan
// device binds binds by address where the target env allows; the others
// keep descriptors, numbered among themselves.
// CHECK-LABEL: gpu.func @big(
// CHECK-SAME: %{{.*}}: memref<1024xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: %{{.*}}: memref<40000000xf32>,
// CHECK-SAME: %{{.*}}: memref<?xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 20, args = [#kiln.arg<memref, size = 4, rank = 1>, #kiln.arg<address, size = 4, rank = 1, push_constant_offset = 0>, #kiln.arg<identity_memref, size = 4, rank = 1, binding = 1, push_constant_offset = 8>]>
// The dynamic one is bound by address in the kernel's address variant.
// CHECK: gpu.func @big__kiln_by_address(
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader, Int64, PhysicalStorageBufferAddresses], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @big(%small: memref<1024xf32>, %large: memref<40000000xf32>, %dyn: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

// Without PhysicalStorageBufferAddresses it stays a descriptor, with a
// warning: only devices with a large maxStorageBufferRange run it.
// CHECK-LABEL: gpu.func @big(
// CHECK-SAME: %{{.*}}: memref<40000000xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    // expected-warning @+1 {{kernel 'big' argument 0 holds 160000000 bytes, above the 128 MiB every Vulkan device binds as a storage buffer, and the target env lacks capability PhysicalStorageBufferAddresses, extension SPV_KHR_physical_storage_buffer, capability Int64 to bind it by address}}
    gpu.func @big(%large: memref<40000000xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}
