// RUN: kiln-opt %s --kiln-serialize-spirv --verify-diagnostics

// A module that SPIRV-Tools rejects (a SPIR-V 1.0 entry point whose interface
// lists a storage buffer) is an error quoting the validator.
module attributes {gpu.container_module} {
  // expected-error @+1 {{SPIR-V of GPU module 'm' fails validation (spirv-val --target-env vulkan1.0): OpEntryPoint interfaces must be OpVariables with Storage Class of Input(1) or Output(3)}}
  gpu.module @m {
    spirv.module @__spv__m Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      spirv.func @k() "None" {
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @k, @buf
      spirv.ExecutionMode @k "LocalSize", 1, 1, 1
    }
    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>, kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 0, args = []>} {
      gpu.return
    }
  }
}
