//===- InitAll.cpp - Register what Kiln's tools understand ----------------===//

#include "kiln/InitAll.h"
#include "kiln/Dialect/Kiln/KilnDialect.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Conversion/GPUToNVVM/Passes.h"
#include "kiln/Conversion/GPUToSPIRV/Passes.h"
#include "kiln/Host/Passes.h"
#include "kiln/Target/NVVM/Passes.h"
#include "kiln/Target/SPIRV/Passes.h"
#include "kiln/Target/SPIRVCPU/Passes.h"
#include "kiln/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/SPIRV/Target.h"

void kiln::registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  registry.insert<kiln::KilnDialect>();
  mlir::registerAllExtensions(registry);
  mlir::spirv::registerSPIRVTargetInterfaceExternalModels(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // Serializing NVVM GPU modules translates them to LLVM IR in-process.
  mlir::registerAllToLLVMIRTranslations(registry);
}

void kiln::registerKilnPasses() {
  registerKilnTransformsPasses();
  registerKilnGPUToSPIRVPasses();
  registerKilnGPUToNVVMPasses();
  registerKilnTargetSPIRVPasses();
  registerKilnTargetSPIRVCPUPasses();
  registerKilnTargetNVVMPasses();
  registerKilnHostPasses();
}

void kiln::registerAllPasses() {
  mlir::registerAllPasses();
  kiln::registerKilnPasses();
  kiln::registerKilnPipelines();
}
