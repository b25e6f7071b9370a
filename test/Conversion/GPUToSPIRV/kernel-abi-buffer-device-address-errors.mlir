// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi=buffer-device-address=always --verify-diagnostics
// RUN: not kiln-opt %s --kiln-spirv-kernel-abi=buffer-device-address=sometimes 2>&1 | FileCheck %s --check-prefix=MODE

// MODE: error: unknown buffer-device-address 'sometimes'; expected never, auto or always

// A target env without PhysicalStorageBufferAddresses cannot bind by address.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' argument 0 cannot bind by buffer device address (buffer-device-address=always): the target env lacks capability PhysicalStorageBufferAddresses, extension SPV_KHR_physical_storage_buffer; the target env given in the program}}
    gpu.func @k(%a: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

// Nor one without Int64: the address is a 64-bit push constant.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader, PhysicalStorageBufferAddresses], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' argument 0 cannot bind by buffer device address (buffer-device-address=always): the target env lacks capability Int64;}}
    gpu.func @k(%a: memref<4xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

// A binding the program gives stays a descriptor, also under `always`.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3)>}) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}
