// A SPIR-V op the spirv-cpu lowering has no LLVM form for is refused at the
// op, located, instead of a module that fails later. Every op Kiln's own
// SPIR-V conversion emits runs (test/Ops checks each on spirv-cpu), so the
// module here is written in SPIR-V directly.
// RUN: not kiln-opt %s --kiln-spirv-to-cpu 2>&1 | FileCheck %s

// CHECK: unsupported-op.mlir:[[@LINE+8]]:14: error: the spirv-cpu target cannot run 'spirv.GL.FrexpStruct': it has no lowering to the LLVM dialect
module attributes {gpu.container_module} {
  gpu.module @kernels {
    spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> attributes {
        spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
      spirv.func @k() "None" attributes {
          spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
        %x = spirv.Constant 1.0 : f32
        %r = spirv.GL.FrexpStruct %x : f32 -> !spirv.struct<(f32, i32)>
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @k
      spirv.ExecutionMode @k "LocalSize", 1, 1, 1
    }
  }
}
