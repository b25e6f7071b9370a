//===- LowerSubgroupReduce.cpp - Subgroup reductions as warp shuffles -----===//

#include "kiln/Conversion/GPUToNVVM/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERSUBGROUPREDUCE
#include "kiln/Conversion/GPUToNVVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class LowerSubgroupReducePass
    : public kiln::impl::KilnLowerSubgroupReduceBase<LowerSubgroupReducePass> {
public:
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuBreakDownSubgroupReducePatterns(patterns,
                                               /*maxShuffleBitwidth=*/32);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, subgroupSize,
                                                    /*shuffleBitwidth=*/32);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, subgroupSize, /*shuffleBitwidth=*/32);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // convert-gpu-to-nvvm has no lowering of gpu.subgroup_size; on NVIDIA
    // GPUs it is a constant.
    getOperation().walk([&](gpu::SubgroupSizeOp op) {
      OpBuilder builder(op);
      op.replaceAllUsesWith(
          arith::ConstantIndexOp::create(builder, op.getLoc(), subgroupSize)
              .getResult());
      op.erase();
    });
  }
};
} // namespace
