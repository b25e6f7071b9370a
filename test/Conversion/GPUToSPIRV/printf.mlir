// gpu.printf: on Vulkan a call of a stub whose format the spirv.module
// keeps, which serialization turns into NonSemantic.DebugPrintf (in SPIR-V
// 1.6, or below it with SPV_KHR_non_semantic_info declared); on CUDA a call
// of vprintf with the format string in the PTX.
// RUN: kiln-opt %s --gpu-kernel-outlining --kiln-attach-spirv-target-env=profile=desktop --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s --check-prefix=STUB
// RUN: kiln-compile %s --emit=spirv -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: kiln-compile %s --emit=spirv --target-env='#spirv.target_env<#spirv.vce<v1.5, [Shader], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_non_semantic_info]>, api=Vulkan, #spirv.resource_limits<>>' -o %t.15.spv
// RUN: spirv-val --target-env vulkan1.2 %t.15.spv
// RUN: spirv-dis %t.15.spv | FileCheck %s --check-prefix=SPIRV15
// RUN: not kiln-opt %s --kiln-gpu-to-spirv=target-env=vulkan-1.2 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: kiln-opt %s --kiln-gpu-to-nvvm=format=ptx | FileCheck %s --check-prefix=CUDA

// STUB: spirv.module @__spv__main_kernel Logical GLSL450
// STUB-SAME: kiln.debug_printf_formats = ["thread %d of %u\0A", "f16 %f\0A"]
// STUB: spirv.func @main_kernel()
// STUB: spirv.FunctionCall @__kiln_debug_printf_0(%{{.*}}, %{{.*}}) : (i32, i32) -> ()
// STUB: %[[H:.*]] = spirv.FConvert %{{.*}} : f16 to f32
// STUB: spirv.FunctionCall @__kiln_debug_printf_1(%[[H]]) : (f32) -> ()
// STUB: spirv.func @__kiln_debug_printf_0(%{{.*}}: i32, %{{.*}}: i32) "None"
// STUB: spirv.func @__kiln_debug_printf_1(%{{.*}}: f32) "None"

// SPIRV: Version: 1.6
// SPIRV-NOT: OpExtension "SPV_KHR_non_semantic_info"
// SPIRV: %[[SET:.*]] = OpExtInstImport "NonSemantic.DebugPrintf"
// SPIRV: OpExecutionMode %main_kernel LocalSize 4 1 1
// The f16 and f32 the kernel computes with keep NaNs and signed zeros.
// SPIRV-NEXT: OpExecutionMode %main_kernel SignedZeroInfNanPreserve 16
// SPIRV-NEXT: OpExecutionMode %main_kernel SignedZeroInfNanPreserve 32
// SPIRV-NEXT: %[[F0:.*]] = OpString "thread %d of %u
// SPIRV: %[[F1:.*]] = OpString "f16 %f
// SPIRV-NOT: __kiln_debug_printf
// SPIRV: OpExtInst %void %[[SET]] 1 %[[F0]] %{{.*}} %{{.*}}
// SPIRV: OpExtInst %void %[[SET]] 1 %[[F1]] %{{.*}}
// SPIRV-NOT: OpFunctionCall

// SPIRV15: Version: 1.5
// SPIRV15: OpExtension "SPV_KHR_non_semantic_info"
// SPIRV15-NEXT: OpExtInstImport "NonSemantic.DebugPrintf"

// OLD: printf.mlir:[[@LINE+12]]:5: error: 'gpu.printf' op needs Vulkan's debug printf, which takes SPIR-V 1.6 or the extension SPV_KHR_non_semantic_info; target env 'vulkan-1.2' (choose another with --target-env=

// CUDA: gpu.binary @main_kernel
// CUDA-SAME: call.uni
// CUDA-SAME: vprintf
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %n = arith.index_cast %sx : index to i32
    gpu.printf "thread %d of %u\n", %t, %n : i32, i32
    %h = arith.sitofp %t : i32 to f16
    gpu.printf "f16 %f\n", %h : f16
    gpu.terminator
  }
  return
}
