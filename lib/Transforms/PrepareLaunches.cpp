//===- PrepareLaunches.cpp - Launches as upstream's transformations leave them
//
// Before kernels are outlined: mapped scf.parallel loops become gpu.launch
// (upstream's convert-parallel-loops-to-gpu), and launch sizes that fold to
// constants are constants, so that the Vulkan pipeline's fixed workgroup
// size and the launch-bounds checks see them.
//
//===----------------------------------------------------------------------===//

#include "kiln/Transforms/Passes.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln {
#define GEN_PASS_DEF_KILNPREPARELAUNCHES
#include "kiln/Transforms/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// The constant `v` folds to through the ops that compute it (each folded
/// with its operands' constants), or null.
static Attribute foldToConstant(Value v, unsigned depth = 0) {
  Attribute constant;
  if (matchPattern(v, m_Constant(&constant)))
    return constant;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32 || def->getNumResults() != 1 ||
      def->getNumRegions() != 0)
    return {};
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    Attribute c = foldToConstant(operand, depth + 1);
    if (!c)
      return {};
    operands.push_back(c);
  }
  SmallVector<OpFoldResult> folded;
  if (failed(def->fold(operands, folded)) || folded.size() != 1)
    return {};
  if (auto attr = dyn_cast<Attribute>(folded.front()))
    return attr;
  Value same = cast<Value>(folded.front());
  return same == v ? Attribute() : foldToConstant(same, depth + 1);
}

/// Replaces each of `operands` that folds to an index constant by one.
static void foldSizes(Operation *launch, ArrayRef<OpOperand *> operands) {
  OpBuilder b(launch);
  for (OpOperand *operand : operands) {
    Value v = operand->get();
    if (!v.getType().isIndex() || matchPattern(v, m_Constant()))
      continue;
    auto value = dyn_cast_or_null<IntegerAttr>(foldToConstant(v));
    if (!value)
      continue;
    operand->set(
        arith::ConstantIndexOp::create(b, launch->getLoc(), value.getInt()));
  }
}

template <typename LaunchOp>
static SmallVector<OpOperand *> sizeOperands(LaunchOp op) {
  SmallVector<OpOperand *> operands = {
      &op.getGridSizeXMutable(),  &op.getGridSizeYMutable(),
      &op.getGridSizeZMutable(),  &op.getBlockSizeXMutable(),
      &op.getBlockSizeYMutable(), &op.getBlockSizeZMutable()};
  for (MutableOperandRange range :
       {op.getClusterSizeXMutable(), op.getClusterSizeYMutable(),
        op.getClusterSizeZMutable(), op.getDynamicSharedMemorySizeMutable()})
    for (OpOperand &operand : range)
      operands.push_back(&operand);
  return operands;
}

namespace {
class PrepareLaunches
    : public kiln::impl::KilnPrepareLaunchesBase<PrepareLaunches> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    bool mapped = false;
    module.walk([&](scf::ParallelOp loop) {
      if (loop->hasAttr(gpu::getMappingAttrName()))
        mapped = true;
    });
    if (mapped) {
      RewritePatternSet patterns(ctx);
      populateParallelLoopToGPUPatterns(patterns);
      ConversionTarget target(*ctx);
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      configureParallelLoopToGPULegality(target);
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
      finalizeParallelLoopToGPUConversion(module);
    }
    module.walk([](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchOp>(op))
        foldSizes(op, sizeOperands(launch));
      else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
        foldSizes(op, sizeOperands(launch));
    });
  }
};
} // namespace
