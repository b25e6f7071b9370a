//===- FloatControls.cpp - IEEE semantics for Vulkan entry points ---------===//
//
// Without SPV_KHR_float_controls' SignedZeroInfNanPreserve a Vulkan driver
// may ignore NaNs, infinities and signed zeros; with it, results agree with
// the host's and CUDA's (test/Ops checks them against the host).
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSPIRVFLOATCONTROLS
#include "kiln/Target/SPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class FloatControlsPass
    : public kiln::impl::KilnSPIRVFloatControlsBase<FloatControlsPass> {
public:
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    spirv::TargetEnv target(spirv::lookupTargetEnvOrDefault(module));
    if (!target.allows(spirv::Capability::SignedZeroInfNanPreserve) ||
        (target.getVersion() < spirv::Version::V_1_4 &&
         !target.allows(spirv::Extension::SPV_KHR_float_controls)))
      return;
    // The float widths the module computes with.
    llvm::SmallSetVector<int32_t, 3> widths;
    auto note = [&](Type type) {
      if (auto f = dyn_cast<FloatType>(getElementTypeOrSelf(type)))
        widths.insert(f.getWidth());
    };
    module.walk([&](Operation *op) {
      // Ops that only move floats (memory, composites, constants, casts of
      // bits) need no float controls: a kernel that copies f16 buffers
      // does not need 16-bit ones.
      if (isa<spirv::FuncOp, spirv::GlobalVariableOp, spirv::ModuleOp,
              spirv::LoadOp, spirv::StoreOp, spirv::AccessChainOp,
              spirv::PtrAccessChainOp, spirv::InBoundsPtrAccessChainOp,
              spirv::VariableOp, spirv::ConstantOp, spirv::BitcastOp,
              spirv::CompositeConstructOp, spirv::CompositeExtractOp,
              spirv::CompositeInsertOp, spirv::VectorShuffleOp,
              spirv::ReturnValueOp, spirv::FunctionCallOp,
              spirv::GroupNonUniformShuffleOp,
              spirv::GroupNonUniformShuffleXorOp,
              spirv::GroupNonUniformBroadcastOp>(op))
        return;
      for (Type t : op->getResultTypes())
        note(t);
      for (Type t : op->getOperandTypes())
        note(t);
    });
    if (widths.empty())
      return;
    llvm::SmallDenseSet<std::pair<StringRef, int32_t>> existing;
    for (auto mode : module.getOps<spirv::ExecutionModeOp>())
      if (mode.getExecutionMode() ==
              spirv::ExecutionMode::SignedZeroInfNanPreserve &&
          !mode.getValues().empty())
        existing.insert({mode.getFn(),
                         int32_t(cast<IntegerAttr>(mode.getValues()[0])
                                     .getInt())});
    SmallVector<spirv::EntryPointOp> entries(
        module.getOps<spirv::EntryPointOp>());
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    for (spirv::EntryPointOp entry : entries) {
      auto fn = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
      if (!fn)
        continue;
      for (int32_t width : widths)
        if (!existing.contains({fn.getName(), width}))
          spirv::ExecutionModeOp::create(
              b, entry.getLoc(), fn,
              spirv::ExecutionMode::SignedZeroInfNanPreserve, {width});
    }
  }
};
} // namespace
