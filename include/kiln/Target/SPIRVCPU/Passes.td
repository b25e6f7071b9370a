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
    `mgpuModuleLoad` gets the container. Every access to a buffer or to
    workgroup memory is bounded, as Vulkan's robustBufferAccess2 bounds
    them: out of bounds, a load reads zeros, a store is dropped and an atomic
    changes nothing and returns 0 (`unbounded-access` leaves them as they
    are, for speed). With `checked`, such an access stops the run with an
    error naming it instead. An op with
    no lowering is an error at the op. See docs/spirv-cpu.md and
    include/kiln/Contract/SPIRVCPUABI.h.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"checked", "checked", "bool", /*default=*/"false",
           "Check every buffer and workgroup memory access and that every "
           "invocation reaches each barrier">,
    Option<"unboundedAccess", "unbounded-access", "bool", /*default=*/"false",
           "Leave buffer and workgroup memory accesses unbounded: faster, "
           "but an access out of bounds reaches the host's memory">,
  ];
}

#endif // KILN_TARGET_SPIRVCPU_PASSES
