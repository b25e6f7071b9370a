// RUN: kiln-opt %s --kiln-attach-spirv-target-env=profile=vulkan-9 --verify-diagnostics
// RUN: kiln-opt %s --kiln-attach-spirv-target-env='profile=#spirv.target_env<#spirv.vce<v1.3,[Shader],[]>,#spirv.resource_limits<>>' | FileCheck %s

// An unknown profile is an error at the GPU module that needs it; a literal
// attribute is accepted.
// CHECK: gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>}
module attributes {gpu.container_module} {
  // expected-error @+1 {{unknown target env 'vulkan-9'; known profiles: vulkan-1.1, vulkan-1.2, vulkan-1.3, desktop, lavapipe, spirv-cpu, or a #spirv.target_env<...> literal}}
  gpu.module @kernels {
  }
}
