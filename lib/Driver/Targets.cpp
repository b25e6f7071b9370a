//===- Targets.cpp - Where kernels run, one row per target ----------------===//
//
// The table of targets (kiln/Driver/Targets.h) and each target's pipelines,
// filled from the driver's TargetOptions.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/Targets.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Target/NVVM/CUDA.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::driver;

/// The options the Vulkan and spirv-cpu pipelines share.
template <typename PipelineOptions>
static void fillSPIRVOptions(PipelineOptions &pipeline,
                             const TargetOptions &options) {
  if (!options.targetEnv.empty())
    pipeline.targetEnv = options.targetEnv;
  pipeline.use64BitIndex = options.use64BitIndex;
  pipeline.fastMath = options.fastMath;
  if (!options.bufferDeviceAddress.empty())
    pipeline.bufferDeviceAddress = options.bufferDeviceAddress;
}

static void addVulkanPipeline(OpPassManager &pm, const TargetOptions &options,
                              bool program) {
  GPUToSPIRVPipelineOptions pipeline;
  fillSPIRVOptions(pipeline, options);
  if (program)
    buildGPUToVulkanPassPipeline(pm, pipeline);
  else
    buildGPUToSPIRVPassPipeline(pm, pipeline);
}

static void addCUDAPipeline(OpPassManager &pm, const TargetOptions &options,
                            bool program) {
  GPUToNVVMPipelineOptions pipeline;
  if (!options.chip.empty())
    pipeline.chip = options.chip;
  pipeline.features = options.features;
  if (!options.format.empty())
    pipeline.format = options.format;
  pipeline.cudaPath = options.cudaPath;
  if (program)
    buildGPUToCUDAPassPipeline(pm, pipeline);
  else
    buildGPUToNVVMPassPipeline(pm, pipeline);
}

static void addSPIRVCPUPipeline(OpPassManager &pm, const TargetOptions &options,
                                bool program) {
  GPUToSPIRVCPUPipelineOptions pipeline;
  fillSPIRVOptions(pipeline, options);
  pipeline.checked = options.checked;
  pipeline.unboundedAccess = options.unboundedAccess;
  if (program)
    buildGPUToSPIRVCPUPassPipeline(pm, pipeline);
  else
    buildGPUToSPIRVCPUKernelPassPipeline(pm, pipeline);
}

static constexpr llvm::StringLiteral spirvKinds[] = {"spirv", "container"};
static constexpr llvm::StringLiteral cudaKinds[] = {"ptx", "cubin"};

static const TargetInfo targetTable[] = {
    {Target::Vulkan, "vulkan", spirvKinds, /*containers=*/true,
     kDefaultVulkanTargetEnv, /*deviceTargetEnv=*/"",
     kDefaultVulkanBufferDeviceAddress, DeviceRuntime::Vulkan,
     "libkiln_vulkan_runtime.a", addVulkanPipeline},
    {Target::CUDA, "cuda", cudaKinds, /*containers=*/false,
     /*defaultTargetEnv=*/"", /*deviceTargetEnv=*/"",
     /*defaultBufferDeviceAddress=*/"", DeviceRuntime::CUDA,
     "libkiln_cuda_runtime.a", addCUDAPipeline},
    // The CPU's own profile: its subgroups are 8 wide and its workgroup
    // memory is not a device's; "device" names it too.
    {Target::SPIRVCPU, "spirv-cpu", spirvKinds, /*containers=*/true,
     kDefaultSPIRVCPUTargetEnv, kDefaultSPIRVCPUTargetEnv,
     kDefaultSPIRVCPUBufferDeviceAddress, DeviceRuntime::None,
     "libkiln_spirv_cpu_runtime.a", addSPIRVCPUPipeline},
};

ArrayRef<TargetInfo> driver::targets() { return targetTable; }

const TargetInfo &driver::targetInfo(Target target) {
  for (const TargetInfo &info : targetTable)
    if (info.target == target)
      return info;
  llvm_unreachable("every Target has a row");
}

const TargetInfo *driver::findTarget(StringRef name) {
  for (const TargetInfo &info : targetTable)
    if (info.name == name)
      return &info;
  return nullptr;
}

std::string driver::targetNames() {
  return llvm::join(
      llvm::map_range(targetTable,
                      [](const TargetInfo &info) { return info.name.str(); }),
      ", ");
}
