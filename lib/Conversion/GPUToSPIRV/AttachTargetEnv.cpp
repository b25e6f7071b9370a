//===- AttachTargetEnv.cpp - Give every GPU module a target env -----------===//

#include "kiln/Target/SPIRV/TargetEnvs.h"
#include "kiln/Conversion/GPUToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace kiln {
#define GEN_PASS_DEF_KILNATTACHSPIRVTARGETENV
#include "kiln/Conversion/GPUToSPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class AttachTargetEnvPass
    : public kiln::impl::KilnAttachSPIRVTargetEnvBase<AttachTargetEnvPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef attrName = spirv::getTargetEnvAttrName();
    std::optional<spirv::TargetEnvAttr> fallback;
    bool failed = false;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      // An env on the GPU module or an enclosing module is kept.
      if (spirv::TargetEnvAttr existing = spirv::lookupTargetEnv(gpuModule)) {
        gpuModule->setAttr(attrName, existing);
        return;
      }
      if (!fallback) {
        std::string error;
        FailureOr<spirv::TargetEnvAttr> env =
            kiln::getTargetEnvProfile(&getContext(), profile, error);
        if (mlir::failed(env)) {
          gpuModule.emitError(error);
          failed = true;
          return;
        }
        fallback = *env;
      }
      gpuModule->setAttr(attrName, *fallback);
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
