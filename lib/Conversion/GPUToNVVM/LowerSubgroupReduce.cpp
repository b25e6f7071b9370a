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
    // convert-gpu-to-nvvm has no lowering of gpu.subgroup_size,
    // gpu.subgroup_id or gpu.num_subgroups; on NVIDIA GPUs the size is a
    // constant and the warps are the block's threads in order.
    getOperation().walk([&](Operation *op) {
      if (!isa<gpu::SubgroupSizeOp, gpu::SubgroupIdOp, gpu::NumSubgroupsOp>(
              op))
        return;
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value size = arith::ConstantIndexOp::create(b, loc, subgroupSize);
      Value replacement = size;
      if (isa<gpu::SubgroupIdOp>(op)) {
        Value x = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
        Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
        Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
        Value dx = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
        Value dy = gpu::BlockDimOp::create(b, loc, gpu::Dimension::y);
        Value zy = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, z, dy), y);
        Value linear = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, zy, dx), x);
        replacement = arith::DivUIOp::create(b, loc, linear, size);
      } else if (isa<gpu::NumSubgroupsOp>(op)) {
        Value dx = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
        Value dy = gpu::BlockDimOp::create(b, loc, gpu::Dimension::y);
        Value dz = gpu::BlockDimOp::create(b, loc, gpu::Dimension::z);
        Value threads = arith::MulIOp::create(
            b, loc, arith::MulIOp::create(b, loc, dx, dy), dz);
        Value roundUp = arith::ConstantIndexOp::create(b, loc, subgroupSize - 1);
        replacement = arith::DivUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, threads, roundUp), size);
      }
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    });
  }
};
} // namespace
