//===- Passes.td - KilnGPUToSPIRV -*- tablegen -*-===//
//
// GPU kernels to SPIR-V: target env, kernel ABI, conversion.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSION_GPUTOSPIRV_PASSES
#define KILN_CONVERSION_GPUTOSPIRV_PASSES

include "mlir/Pass/PassBase.td"

def KilnAttachSPIRVTargetEnv
    : Pass<"kiln-attach-spirv-target-env", "::mlir::ModuleOp"> {
  let summary = "Attach a #spirv.target_env to every GPU module";
  let description = [{
    Gives each `gpu.module` a `spirv.target_env` attribute. An attribute that
    is already on the GPU module, or on an enclosing module, is kept; otherwise
    the named profile is attached (see `docs/target-envs.md`). The profile may
    also be a literal `#spirv.target_env<...>` attribute.

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After (`profile=vulkan-1.1`; the default is `desktop`,
    `kiln::kDefaultVulkanTargetEnv`):
    ```mlir
    gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<
        #spirv.vce<v1.3, [Shader, GroupNonUniform], [...]>, api=Vulkan, ...>} { ... }
    ```
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
  let options = [
    Option<"profile", "profile", "std::string",
           /*default=*/"::kiln::kDefaultVulkanTargetEnv",
           "Target env profile for GPU modules without one: vulkan-1.1, "
           "vulkan-1.2, vulkan-1.3, desktop, lavapipe, or a #spirv.target_env literal">,
  ];
}

def KilnSPIRVKernelABI : Pass<"kiln-spirv-kernel-abi", "::mlir::ModuleOp"> {
  let summary = "Assign the Vulkan ABI of every kernel from its launches";
  let description = [{
    For each kernel `gpu.func` in a `gpu.module` that carries a
    `spirv.target_env`:

    * `spirv.entry_point_abi` gets the workgroup size from the constant block
      size of the `gpu.launch_func` ops that launch it. An attribute that is
      already present wins. Block sizes above the target env's limits, block
      sizes known only at run time, and launches that disagree are errors at
      the launch.
    * every memref argument gets `spirv.interface_var_abi` (set 0, binding =
      its position among the memref arguments) unless it already has one.
    * `kiln.abi` records Kiln's argument table: for each argument its kind,
      element or scalar size, rank, set, binding and push-constant offset.
      Scalars, and the offset, sizes and strides of memrefs whose shape or
      layout is not static and identity, live in one push-constant block
      (layout in `docs/abi.md`).

    Before:
    ```mlir
    gpu.func @scale(%buf: memref<?xf32>, %k: f32) kernel { ... }
    gpu.launch_func @m::@scale blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1) ...
    ```
    After:
    ```mlir
    gpu.func @scale(%buf: memref<?xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
                    %k: f32) kernel attributes {
        spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>,
        kiln.abi = {push_constant_size = 12 : i32, args = [...]}} { ... }
    ```

    `buffer-device-address` decides which memref arguments bind by buffer
    device address (PhysicalStorageBuffer64, a 64-bit address in the
    push-constant block) instead of a storage-buffer descriptor, whose range
    the device caps (maxStorageBufferRange, 128 MiB on many devices):
    `never`; `auto` (the default), the arguments whose static size is above
    the 128 MiB every Vulkan device binds, where the target env allows
    addresses; `always`, every argument without a user-given
    `spirv.interface_var_abi`, an error when the target env lacks
    PhysicalStorageBufferAddresses or Int64.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect", "::kiln::KilnDialect"];
  let options = [
    Option<"use64BitIndex", "use-64bit-index", "bool", /*default=*/"false",
           "Index-typed push constants (scalars and memref metadata) are "
           "64-bit instead of 32-bit">,
    Option<"bufferDeviceAddress", "buffer-device-address", "std::string",
           /*default=*/"\"auto\"",
           "Memref arguments bound by buffer device address: never, auto "
           "(static sizes above 128 MiB; dynamic ones in an address "
           "variant of the kernel) or always">,
  ];
}

def KilnConvertGPUToSPIRV
    : Pass<"kiln-convert-gpu-to-spirv", "::mlir::ModuleOp"> {
  let summary = "Convert each GPU module into a spirv.module nested in it";
  let description = [{
    Clones every `gpu.module` that has a `spirv.target_env` and converts the
    clone (arith, math, memref, scf, cf, vector, index, func and gpu ops) into
    a `spirv.module` placed inside the original GPU module, which keeps its
    `gpu.func`s so host launches still verify. Memref arguments with dynamic
    shape or layout are flattened to storage buffers addressed with metadata
    from the push-constant block, and scalar arguments are read from it, as
    `kiln.abi` (from `kiln-spirv-kernel-abi`) describes. Index arithmetic
    has the width the kernels' `kiln.abi` gives (`index_bits`), which the
    kernels of one GPU module must agree on.

    An op that cannot be lowered for the module's target env is reported at
    the op with the capabilities or extensions it would need.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::kiln::KilnDialect"];
}

#endif // KILN_CONVERSION_GPUTOSPIRV_PASSES
