//===- Pipelines.cpp - Kiln's pass pipelines ------------------------------===//

#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void kiln::buildGPUToSPIRVDevicePassPipeline(
    OpPassManager &pm, const GPUToSPIRVPipelineOptions &options) {
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createKilnAttachSPIRVTargetEnv(
      KilnAttachSPIRVTargetEnvOptions{options.targetEnv}));
  pm.addPass(createKilnSPIRVKernelABI(
      KilnSPIRVKernelABIOptions{options.use64BitIndex}));
  pm.addPass(createKilnConvertGPUToSPIRV(
      KilnConvertGPUToSPIRVOptions{options.use64BitIndex}));
  OpPassManager &spv = pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spv.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spv.addPass(spirv::createSPIRVUpdateVCEPass());
}

void kiln::buildGPUToSPIRVPassPipeline(
    OpPassManager &pm, const GPUToSPIRVPipelineOptions &options) {
  buildGPUToSPIRVDevicePassPipeline(pm, options);
  KilnSerializeSPIRVOptions serialize;
  serialize.validate = options.validate;
  pm.addPass(createKilnSerializeSPIRV(serialize));
}

void kiln::registerKilnPipelines() {
  PassPipelineRegistration<GPUToSPIRVPipelineOptions>(
      "kiln-gpu-to-spirv",
      "Outline gpu.launch kernels and lower them to validated SPIR-V in one "
      "gpu.binary per GPU module",
      buildGPUToSPIRVPassPipeline);
}
