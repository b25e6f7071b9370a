//===- Pipelines.h - Kiln's pass pipelines ---------------------*- C++ -*-===//

#ifndef KILN_PIPELINES_PIPELINES_H
#define KILN_PIPELINES_PIPELINES_H

#include "kiln/Target/NVVM/CUDA.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
class Operation;
} // namespace mlir

namespace kiln {

/// Options of `--kiln-gpu-to-spirv`.
struct GPUToSPIRVPipelineOptions
    : public mlir::PassPipelineOptions<GPUToSPIRVPipelineOptions> {
  PassOptions::Option<std::string> targetEnv{
      *this, "target-env",
      llvm::cl::desc("Target env profile for GPU modules without one "
                     "(vulkan-1.1, vulkan-1.2, vulkan-1.3, desktop, lavapipe) or a "
                     "#spirv.target_env literal"),
      llvm::cl::init(kiln::kDefaultVulkanTargetEnv)};
  // The runtime reads index-typed push constants with the width recorded in
  // the container, so this setting is part of the ABI (docs/abi.md).
  PassOptions::Option<bool> use64BitIndex{
      *this, "use-64bit-index",
      llvm::cl::desc("Lower index to i64 in kernels and push constants"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> bufferDeviceAddress{
      *this, "buffer-device-address",
      llvm::cl::desc("Memref arguments bound by buffer device address instead "
                     "of a descriptor: never, auto (static sizes above "
                     "128 MiB, where the target env allows; dynamic ones in "
                     "an address variant of the kernel) or always"),
      llvm::cl::init(kiln::kDefaultVulkanBufferDeviceAddress)};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Let the driver ignore NaNs, infinities and signed zeros "
                     "(no SignedZeroInfNanPreserve execution modes)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> validate{
      *this, "validate",
      llvm::cl::desc("Validate every module with SPIRV-Tools"),
      llvm::cl::init(true)};
};

/// Device side: outline, attach target envs, assign the kernel ABI, convert
/// to nested spirv.modules and lower their ABI attributes.
void buildGPUToSPIRVDevicePassPipeline(mlir::OpPassManager &pm,
                                       const GPUToSPIRVPipelineOptions &options);

/// `--kiln-gpu-to-spirv`: the device side, then validation and serialization
/// into one gpu.binary per GPU module.
void buildGPUToSPIRVPassPipeline(mlir::OpPassManager &pm,
                                 const GPUToSPIRVPipelineOptions &options);

/// The host side shared by every target: host code to the LLVM dialect with
/// MLIR's memref calling convention; gpu.launch_func, gpu.alloc, gpu.memcpy,
/// ... become calls of the runtime's mgpu* entry points, each memref kernel
/// argument expanded as (allocated, aligned, offset, sizes[N], strides[N]).
void buildHostToLLVMPassPipeline(mlir::OpPassManager &pm);

/// `--kiln-gpu-to-vulkan`: `--kiln-gpu-to-spirv`, then the host to LLVM.
void buildGPUToVulkanPassPipeline(mlir::OpPassManager &pm,
                                  const GPUToSPIRVPipelineOptions &options);

/// Options of `--kiln-gpu-to-spirv-cpu`.
struct GPUToSPIRVCPUPipelineOptions
    : public mlir::PassPipelineOptions<GPUToSPIRVCPUPipelineOptions> {
  PassOptions::Option<std::string> targetEnv{
      *this, "target-env",
      llvm::cl::desc("Target env profile for GPU modules without one "
                     "(spirv-cpu, vulkan-1.1, vulkan-1.2, vulkan-1.3, desktop, "
                     "lavapipe) or a #spirv.target_env literal"),
      llvm::cl::init(kiln::kDefaultSPIRVCPUTargetEnv)};
  PassOptions::Option<bool> use64BitIndex{
      *this, "use-64bit-index",
      llvm::cl::desc("Lower index to i64 in kernels and push constants"),
      llvm::cl::init(false)};
  // A CPU has no maxStorageBufferRange: descriptors reach any size, and
  // checked mode checks them.
  PassOptions::Option<std::string> bufferDeviceAddress{
      *this, "buffer-device-address",
      llvm::cl::desc("Memref arguments bound by buffer device address: "
                     "never (default), auto or always"),
      llvm::cl::init(kiln::kDefaultSPIRVCPUBufferDeviceAddress)};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Let the driver ignore NaNs, infinities and signed zeros "
                     "(no SignedZeroInfNanPreserve execution modes)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> validate{
      *this, "validate",
      llvm::cl::desc("Validate every module with SPIRV-Tools"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checked{
      *this, "checked",
      llvm::cl::desc("Bounds-check every buffer and workgroup memory access "
                     "and check that every invocation reaches each barrier"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> unboundedAccess{
      *this, "unbounded-access",
      llvm::cl::desc("Leave buffer and workgroup memory accesses unbounded "
                     "(by default one out of bounds reads zeros or is "
                     "dropped): faster, but such an access reaches the "
                     "host's memory"),
      llvm::cl::init(false)};
};

/// The kernels of `--kiln-gpu-to-spirv-cpu`: the Vulkan device side, each
/// module's SPIR-V compiled to host functions, then validation and
/// serialization into gpu.binary ops.
void buildGPUToSPIRVCPUKernelPassPipeline(
    mlir::OpPassManager &pm, const GPUToSPIRVCPUPipelineOptions &options);

/// `--kiln-gpu-to-spirv-cpu`: the Vulkan device side up to validated SPIR-V,
/// each module's SPIR-V compiled to host functions for the spirv-cpu
/// runtime, then the host to LLVM.
void buildGPUToSPIRVCPUPassPipeline(
    mlir::OpPassManager &pm, const GPUToSPIRVCPUPipelineOptions &options);

/// Options of `--kiln-gpu-to-nvvm` and `--kiln-gpu-to-cuda`.
struct GPUToNVVMPipelineOptions
    : public mlir::PassPipelineOptions<GPUToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA chip for GPU modules without a target"),
      llvm::cl::init(kiln::cuda::kDefaultChip.str())};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, e.g. +ptx80 (default: the oldest PTX "
                     "the chip accepts)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX back end (0 to 3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("ptx, cubin or fatbin (cubin and fatbin need the CUDA "
                     "toolkit's ptxas; without it PTX is emitted)"),
      llvm::cl::init(kiln::cuda::kDefaultFormat.str())};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root (default: $CUDA_PATH, $PATH, "
                     "/usr/local/cuda)"),
      llvm::cl::init("")};
};

/// Device side for CUDA: outline, attach checked #nvvm.targets, lower the
/// GPU modules to the NVVM and LLVM dialects.
void buildGPUToNVVMDevicePassPipeline(mlir::OpPassManager &pm,
                                      const GPUToNVVMPipelineOptions &options);

/// `--kiln-gpu-to-nvvm`: the device side, then one gpu.binary (PTX, cubin or
/// fatbin) per GPU module.
void buildGPUToNVVMPassPipeline(mlir::OpPassManager &pm,
                                const GPUToNVVMPipelineOptions &options);

/// `--kiln-gpu-to-cuda`: `--kiln-gpu-to-nvvm`, host memrefs registered
/// around the launches that use them, then the host to LLVM.
void buildGPUToCUDAPassPipeline(mlir::OpPassManager &pm,
                                const GPUToNVVMPipelineOptions &options);

/// True when `module` is already in the LLVM dialect, its kernels in
/// gpu.binary ops: the runners and kiln-compile take such input as it is.
bool isLoweredToLLVM(mlir::Operation *module);

/// Registers Kiln's pipelines with the global pass registry.
void registerKilnPipelines();

} // namespace kiln

#endif // KILN_PIPELINES_PIPELINES_H
