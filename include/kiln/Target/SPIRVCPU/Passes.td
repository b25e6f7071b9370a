//===- Passes.td - KilnTargetSPIRVCPU -*- tablegen -*-===//
//
// SPIR-V kernels compiled for the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_SPIRVCPU_PASSES
#define KILN_TARGET_SPIRVCPU_PASSES

include "mlir/Pass/PassBase.td"

def KilnSPIRVToCPU : Pass<"kiln-spirv-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Compile each GPU module's SPIR-V for the spirv-cpu runtime";
  let description = [{
    Converts a copy of the `spirv.module` inside each `gpu.module` (after
    `spirv-lower-abi-attrs`, before `kiln-serialize-spirv`) to LLVM-dialect
    functions in the host module that Kiln's spirv-cpu runtime runs once per
    invocation, with every workgroup and invocation of the launch modelled:
    built-ins come from the invocation, Workgroup variables live in per
    workgroup memory, barriers and subgroup operations call the runtime, and
    atomics are LLVM atomics. A host constructor registers each kernel under
    the hash of the module's SPIR-V words, which the runtime matches when
    `mgpuModuleLoad` gets the container. With `checked`, every access to a
    buffer or to workgroup memory is bounds-checked at run time. An op with
    no lowering is an error at the op. See docs/spirv-cpu.md and
    include/kiln/Runtime/SPIRVCPUABI.h.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"checked", "checked", "bool", /*default=*/"false",
           "Check every buffer and workgroup memory access and that every "
           "invocation reaches each barrier">,
  ];
}

#endif // KILN_TARGET_SPIRVCPU_PASSES
