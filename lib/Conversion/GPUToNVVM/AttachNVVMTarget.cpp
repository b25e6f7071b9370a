//===- AttachNVVMTarget.cpp - Checked NVVM targets on GPU modules ---------===//

#include "kiln/Conversion/GPUToNVVM/Passes.h"
#include "kiln/Target/NVVM/CUDA.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace kiln {
#define GEN_PASS_DEF_KILNATTACHNVVMTARGET
#include "kiln/Conversion/GPUToNVVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class AttachNVVMTargetPass
    : public kiln::impl::KilnAttachNVVMTargetBase<AttachNVVMTargetPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string feats = kiln::cuda::targetFeatures(chip, features);
    if (optLevel > 3) {
      module.emitError() << "kiln-attach-nvvm-target: optimization level "
                         << optLevel << " is not in 0..3";
      return signalPassFailure();
    }
    auto target = NVVM::NVVMTargetAttr::get(&getContext(), optLevel,
                                            "nvptx64-nvidia-cuda", chip, feats);
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      if (!gpuModule.getTargetsAttr() || gpuModule.getTargetsAttr().empty())
        gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {target}));
    });
    if (failed(kiln::cuda::checkNVVMTargets(module)))
      signalPassFailure();
  }
};

} // namespace
