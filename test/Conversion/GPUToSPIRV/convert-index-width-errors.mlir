// RUN: kiln-opt %s --kiln-convert-gpu-to-spirv --verify-diagnostics

// The kernels of one GPU module share one SPIR-V module, so one index
// width: their kiln.abi must agree on it.
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @narrow(%n: index) kernel attributes {
        spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>,
        kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 4, args = [
            #kiln.arg<scalar, type = index, size = 4, push_constant_offset = 0>]>} {
      gpu.return
    }
    // expected-error @+1 {{kernel 'wide' has 64-bit index push constants, but another kernel of GPU module 'm' has 32-bit ones; one SPIR-V module has one index width}}
    gpu.func @wide(%n: index) kernel attributes {
        spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>,
        kiln.abi = #kiln.kernel_abi<index_bits = 64, push_constant_size = 8, args = [
            #kiln.arg<scalar, type = index, size = 8, push_constant_offset = 0>]>} {
      gpu.return
    }
  }
}
