//===- downstream-opt.cpp - A project's opt tool with Kiln's passes -------===//
//
// MLIR's dialects and passes, Kiln's passes and pipelines, and the project's
// own pipeline made of Kiln's: everything Kiln's kiln-opt has, in a tool of
// the project's own.
//
//===----------------------------------------------------------------------===//

#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  kiln::registerAllPasses();
  // The project's GPUs are Vulkan 1.3 desktop GPUs: Kiln's SPIR-V pipeline
  // for them, under a name of the project's.
  mlir::PassPipelineRegistration<>(
      "downstream-to-spirv", "Kiln's SPIR-V pipeline for the desktop profile",
      [](mlir::OpPassManager &pm) {
        kiln::GPUToSPIRVPipelineOptions options;
        options.targetEnv = "desktop";
        kiln::buildGPUToSPIRVPassPipeline(pm, options);
      });
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "downstream-opt: MLIR with Kiln's passes\n", registry));
}
