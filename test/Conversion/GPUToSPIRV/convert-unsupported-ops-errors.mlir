// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv --verify-diagnostics

// Ops no SPIR-V target of Kiln's can run are refused at the op, before the
// conversion, with the reason and a way out.

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      // expected-error @+1 {{'memref.alloc' cannot run on Kiln's SPIR-V targets (Vulkan, spirv-cpu): a Vulkan kernel cannot allocate global memory}}
      %m = memref.alloc() : memref<64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xi32>
      %c0 = arith.constant 0 : i32
      %ok = arith.cmpi sge, %x, %c0 : i32
      // expected-error @+1 {{'cf.assert' cannot run on Kiln's SPIR-V targets (Vulkan, spirv-cpu): a Vulkan kernel cannot stop the program}}
      cf.assert %ok, "negative"
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      // expected-error @+1 {{'memref.atomic_rmw' maximumf on 'f32' cannot run on Kiln's SPIR-V targets (Vulkan, spirv-cpu): SPIR-V's float atomics are add and exchange}}
      %old = memref.atomic_rmw maximumf %x, %a[%c0] : (f32, memref<64xf32>) -> f32
      gpu.return
    }
  }
}
