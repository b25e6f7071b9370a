// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv --verify-diagnostics

// An op whose lowering needs a capability the target env lacks names it.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      // expected-error @+1 {{'gpu.subgroup_reduce' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability GroupNonUniformArithmetic}}
      %r = gpu.subgroup_reduce add %x : (f32) -> f32
      memref.store %r, %a[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      // Every op the conversion cannot legalize is reported, not only the
      // first it met.
      // expected-error @+1 {{'arith.extf' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability Float64}}
      %d = arith.extf %x : f32 to f64
      // expected-error @+1 {{'arith.addf' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability Float64}}
      %e = arith.addf %d, %d : f64
      // expected-error @+1 {{'arith.truncf' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability Float64}}
      %f = arith.truncf %e : f64 to f32
      memref.store %f, %a[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// An op with no lowering at all says so.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      // expected-error @+1 {{'math.erf' has no SPIR-V lowering in Kiln (the Vulkan and spirv-cpu targets) for this target env (SPIR-V v1.3)}}
      %y = math.erf %x : f32
      memref.store %y, %a[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// f16 buffers need 16-bit storage access.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float16], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' argument 0 of type 'memref<64xf16>' cannot be accessed for this target env: it needs capability StorageBuffer16BitAccess and extension SPV_KHR_16bit_storage}}
    gpu.func @k(%a: memref<64xf16>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

// Dynamic memrefs are reached through loads, stores and views only.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<?xf32>, %b: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      // expected-error @+1 {{'memref.copy' on a memref with dynamic shape or layout is not supported in a Vulkan kernel}}
      memref.copy %a, %b : memref<?xf32> to memref<?xf32>
      gpu.return
    }
  }
}

// -----

// i64 buffers need Int64; the error names it at the kernel.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{'gpu.func' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability Int64}}
    gpu.func @k(%a: memref<64xi64>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      gpu.return
    }
  }
}

