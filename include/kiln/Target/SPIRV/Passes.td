//===- Passes.td - KilnTargetSPIRV -*- tablegen -*-===//
//
// SPIR-V modules to validated words in Kiln's container.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_SPIRV_PASSES
#define KILN_TARGET_SPIRV_PASSES

include "mlir/Pass/PassBase.td"

def KilnTidySPIRV : Pass<"kiln-tidy-spirv", "::mlir::spirv::ModuleOp"> {
  let summary = "Loop results without Function variables, access decorations";
  let description = [{
    Runs on a converted `spirv.module`, after its entry points have their
    interface variables (`spirv-lower-abi-attrs`):

    - upstream lowers the results of `scf.for` to Function variables that
      every iteration stores and the code after the loop loads, so a loop
      that runs no iteration returns an undefined value instead of its
      initial one. Each such variable becomes a result of the
      `spirv.mlir.loop`: the loop header's value when the loop exits, which
      is the initial value after no iteration and the last yielded value
      otherwise.
    - a load whose value nothing uses is erased (unless volatile), such as
      the push-constant field of an offset the kernel fixes at 0;
    - a storage buffer that the module never writes gets `NonWritable`, one
      that it never reads `NonReadable` (what GLSL's `readonly` and
      `writeonly` say). `Restrict` is not added: two kernel arguments may be
      the same buffer.

    The pipelines run canonicalization and CSE after it.
  }];
}

def KilnSPIRVFloatControls
    : Pass<"kiln-spirv-float-controls", "::mlir::spirv::ModuleOp"> {
  let summary = "Keep NaNs, infinities and signed zeros as the host does";
  let description = [{
    Vulkan lets a driver ignore NaNs, infinities and the sign of zero unless
    an entry point declares otherwise (SPV_KHR_float_controls), so that
    min/max, remainders and comparisons with NaN could disagree with the
    host and with CUDA. Where the module's target env has the capability
    `SignedZeroInfNanPreserve` (SPIR-V 1.4, or the extension below it),
    every entry point gets the execution mode `SignedZeroInfNanPreserve`
    for each float width the module computes with:

    ```mlir
    spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 32
    ```

    The runtime checks each mode against the device's float controls
    (VkPhysicalDeviceFloatControlsProperties). Kiln's pipelines leave this
    pass out with `fast-math`.
  }];
}

def KilnSPIRVBuiltinCapabilities
    : Pass<"kiln-spirv-builtin-capabilities", "::mlir::spirv::ModuleOp"> {
  let summary = "Declare the capabilities the module's built-ins need";
  let description = [{
    `spirv-update-vce` derives a module's capabilities from its ops and
    types, not from the built-in variables it reads: a kernel that reads
    `gpu.lane_id`, `gpu.subgroup_id`, `gpu.num_subgroups` or
    `gpu.subgroup_size` without any group instruction declared no
    `GroupNonUniform`, and spirv-val refused it. This pass adds the
    capability (and SPIR-V 1.3) to the module's VCE triple where such a
    built-in is read and the target env allows it.
  }];
}

def KilnSerializeSPIRV : Pass<"kiln-serialize-spirv", "::mlir::ModuleOp"> {
  let summary = "Validate and serialize nested spirv.modules into gpu.binary";
  let description = [{
    Serializes the `spirv.module` inside each `gpu.module`, validates the words
    with SPIRV-Tools for the Vulkan version of the module's target env, wraps
    them in Kiln's container (entry points, workgroup sizes, argument tables;
    see `docs/abi.md`) and replaces the GPU module by a `gpu.binary` holding
    one `#gpu.object` whose target is the module's `#spirv.target_env`.
    A validation failure is an error quoting the validator.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let options = [
    Option<"validate", "validate", "bool", /*default=*/"true",
           "Run the SPIRV-Tools validator on every module">,
    Option<"dumpDir", "dump-dir", "std::string", /*default=*/"\"\"",
           "Also write each module's SPIR-V words to DIR/<gpu.module>.spv">,
  ];
}

#endif // KILN_TARGET_SPIRV_PASSES
