//===- NVVMToBinary.cpp - NVVM GPU modules to PTX, cubin and fatbin -------===//

#include "kiln/Target/NVVM/CUDA.h"
#include "kiln/Target/NVVM/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNNVVMTOBINARY
#include "kiln/Target/NVVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;

LogicalResult kiln::cuda::checkNVVMTargets(ModuleOp module) {
  bool failed = false;
  module.walk([&](gpu::GPUModuleOp gpuModule) {
    ArrayAttr targets = gpuModule.getTargetsAttr();
    if (!targets)
      return;
    for (Attribute attr : targets) {
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!target)
        continue;
      if (std::optional<std::string> error =
              kiln::cuda::checkTarget(target.getChip(), target.getFeatures())) {
        gpuModule.emitError()
            << "GPU module '" << gpuModule.getName() << "': " << *error;
        failed = true;
      }
    }
  });
  return failure(failed);
}

namespace {
bool hasNVVMTarget(gpu::GPUModuleOp gpuModule) {
  ArrayAttr targets = gpuModule.getTargetsAttr();
  return targets && llvm::any_of(targets, [](Attribute a) {
           return isa<NVVM::NVVMTargetAttr>(a);
         });
}

class NVVMToBinaryPass
    : public kiln::impl::KilnNVVMToBinaryBase<NVVMToBinaryPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef fmt = format;
    std::string compilationTarget;
    if (fmt == "ptx" || fmt == "isa")
      compilationTarget = "isa";
    else if (fmt == "cubin" || fmt == "bin")
      compilationTarget = "bin";
    else if (fmt == "fatbin")
      compilationTarget = "fatbin";
    else {
      module.emitError() << "kiln-nvvm-to-binary: unknown format '" << fmt
                         << "' (expected ptx, cubin or fatbin)";
      return signalPassFailure();
    }

    SmallVector<gpu::GPUModuleOp> gpuModules;
    module.walk([&](gpu::GPUModuleOp m) {
      if (hasNVVMTarget(m))
        gpuModules.push_back(m);
    });
    if (gpuModules.empty())
      return;
    if (failed(kiln::cuda::checkNVVMTargets(module)))
      return signalPassFailure();

    std::vector<std::string> searched;
    std::optional<kiln::cuda::Toolkit> toolkit =
        kiln::cuda::findToolkit(cudaPath, &searched);
    if (!toolkit && !cudaPath.empty()) {
      module.emitError() << "kiln-nvvm-to-binary: no CUDA toolkit at '"
                         << cudaPath << "' (it has no executable bin/ptxas)";
      return signalPassFailure();
    }
    if (!toolkit && compilationTarget != "isa") {
      module.emitRemark()
          << "no CUDA toolkit found (looked in " << llvm::join(searched, ", ")
          << "): emitting PTX instead of " << fmt
          << "; the driver compiles it when the module is loaded";
      compilationTarget = "isa";
    }
    if (toolkit && compilationTarget == "fatbin" &&
        toolkit->fatbinary.empty()) {
      module.emitRemark() << "the CUDA toolkit at '" << toolkit->root
                          << "' has no bin/fatbinary: emitting cubin";
      compilationTarget = "bin";
    }
    if (!toolkit || toolkit->libdevice.empty()) {
      // Math ops lower to libdevice calls; PTX with unresolved __nv_*
      // functions fails only when the driver loads it, far from the source.
      bool failed = false;
      for (gpu::GPUModuleOp gpuModule : gpuModules) {
        llvm::StringSet<> reported;
        gpuModule.walk([&](LLVM::CallOp call) {
          std::optional<StringRef> callee = call.getCallee();
          if (!callee || !callee->starts_with("__nv_") ||
              !reported.insert(*callee).second)
            return;
          call.emitError() << "GPU module '" << gpuModule.getName()
                           << "' calls '" << *callee
                           << "' from libdevice, which comes with the CUDA "
                              "toolkit: "
                           << (toolkit ? "'" + toolkit->root +
                                             "' has no "
                                             "nvvm/libdevice/libdevice.10.bc"
                                       : "none found (looked in " +
                                             llvm::join(searched, ", ") + ")");
          failed = true;
        });
      }
      if (failed)
        return signalPassFailure();
    }

    GpuModuleToBinaryPassOptions options;
    options.compilationTarget = compilationTarget;
    if (toolkit)
      options.toolkitPath = toolkit->root;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createGpuModuleToBinaryPass(options));
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }
};
} // namespace
