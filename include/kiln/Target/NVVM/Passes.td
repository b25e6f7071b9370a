//===- Passes.td - KilnTargetNVVM -*- tablegen -*-===//
//
// NVVM GPU modules to PTX, cubin and fatbin.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_NVVM_PASSES
#define KILN_TARGET_NVVM_PASSES

include "mlir/Pass/PassBase.td"

def KilnNVVMToBinary : Pass<"kiln-nvvm-to-binary", "::mlir::ModuleOp"> {
  let summary = "Serialize NVVM GPU modules to PTX, cubin or fatbin";
  let description = [{
    Turns every `gpu.module` with an `#nvvm.target` into a `gpu.binary`, like
    `gpu-module-to-binary`, after checking what would otherwise fail inside
    LLVM or at load time:

    * every target's chip and PTX version (as `kiln-attach-nvvm-target`);
    * cubin and fatbin need the CUDA toolkit's `ptxas` (and `fatbinary`): it
      is looked for with `cuda-path`, `$CUDA_PATH`, `$PATH`, `/usr/local/cuda`
      and `/usr/local/cuda-X.Y`. With no toolkit, PTX is emitted instead, with
      a remark: the driver compiles it when the module is loaded. An explicit
      `cuda-path` without `bin/ptxas` is an error.
    * kernels that call libdevice (`__nv_*`, from math ops) need the
      toolkit's `libdevice.10.bc`; without it the calls are reported.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"fatbin\"",
           "ptx (alias isa), cubin (alias bin) or fatbin">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root (holds bin/ptxas); default: searched">,
  ];
}

#endif // KILN_TARGET_NVVM_PASSES
