//===- BuiltinCapabilities.cpp - Capabilities of built-in variables -------===//
//
// spirv-update-vce does not look at the built-ins a module reads; the
// subgroup built-ins need GroupNonUniform (and SPIR-V 1.3).
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSPIRVBUILTINCAPABILITIES
#include "kiln/Target/SPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class BuiltinCapabilitiesPass
    : public kiln::impl::KilnSPIRVBuiltinCapabilitiesBase<
          BuiltinCapabilitiesPass> {
public:
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    bool subgroup = false;
    for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
      std::optional<StringRef> name = var.getBuiltIn();
      if (!name)
        continue;
      std::optional<spirv::BuiltIn> builtin = spirv::symbolizeBuiltIn(*name);
      if (builtin && (*builtin == spirv::BuiltIn::SubgroupSize ||
                      *builtin == spirv::BuiltIn::SubgroupLocalInvocationId ||
                      *builtin == spirv::BuiltIn::SubgroupId ||
                      *builtin == spirv::BuiltIn::NumSubgroups))
        subgroup = true;
    }
    std::optional<spirv::VerCapExtAttr> vce = module.getVceTriple();
    if (!subgroup || !vce)
      return;
    llvm::SmallSetVector<spirv::Capability, 16> caps;
    for (spirv::Capability c : vce->getCapabilities())
      caps.insert(c);
    if (caps.contains(spirv::Capability::GroupNonUniform))
      return;
    spirv::TargetEnv target(spirv::lookupTargetEnvOrDefault(module));
    if (!target.allows(spirv::Capability::GroupNonUniform)) {
      module.emitError("kernels of this module read subgroup built-ins "
                       "(gpu.lane_id, gpu.subgroup_id, gpu.num_subgroups or "
                       "gpu.subgroup_size), which need capability "
                       "GroupNonUniform; the target env lacks it");
      return signalPassFailure();
    }
    caps.insert(spirv::Capability::GroupNonUniform);
    spirv::Version version = std::max(vce->getVersion(), spirv::Version::V_1_3);
    SmallVector<spirv::Extension> exts(vce->getExtensions());
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        version, caps.getArrayRef(), exts, module.getContext()));
  }
};
} // namespace
