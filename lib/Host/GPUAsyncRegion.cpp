//===- GPUAsyncRegion.cpp - gpu-async-region, mended for async programs ---===//
//
// Upstream's gpu-async-region, then two repairs for programs that already
// use async tokens (Passes.td has the rules and an example): its host waits
// that defer nothing are dropped, so launches on two devices overlap, and a
// stream that a host wait ended is never waited or used again.
//
// The ops the program itself wrote as async, and its own host waits, are
// marked before gpu-async-region runs (it rewrites async ops in place and
// makes new ops for the synchronous ones), so the repairs can tell the
// program's ops from those the pass made.
//
//===----------------------------------------------------------------------===//

#include "AsyncDependencies.h"
#include "kiln/Host/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNGPUASYNCREGION
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kUserAsync = "kiln_user_async";
constexpr llvm::StringLiteral kUserWait = "kiln_user_wait";

/// A host wait: `gpu.wait` without a result.
bool isHostWait(Operation *op) {
  auto wait = dyn_cast<gpu::WaitOp>(op);
  return wait && !wait.getAsyncToken();
}

/// The op whose stream token `token` runs on after gpu-to-llvm: an async op
/// with one dependency runs on that dependency's stream; any other (no
/// dependency, several joined, or a `gpu.wait async`) starts a stream.
Operation *streamOf(Value token) {
  Operation *op = token.getDefiningOp();
  while (op) {
    auto async = dyn_cast<gpu::AsyncOpInterface>(op);
    if (!async || isa<gpu::WaitOp>(op) ||
        async.getAsyncDependencies().size() != 1)
      return op;
    Operation *next = async.getAsyncDependencies().front().getDefiningOp();
    if (!next)
      return op;
    op = next;
  }
  return nullptr;
}

/// Whether a host wait that gpu-async-region inserted at `wait` defers
/// nothing: see Passes.td.
bool defersNothing(gpu::WaitOp wait) {
  for (Value token : wait.getAsyncDependencies()) {
    Operation *def = token.getDefiningOp();
    if (!def || !def->hasAttr(kUserAsync))
      return false;
  }
  for (Operation *op = wait->getNextNode(); op; op = op->getNextNode()) {
    if (isHostWait(op)) {
      ValueRange later = cast<gpu::WaitOp>(op).getAsyncDependencies();
      return llvm::all_of(wait.getAsyncDependencies(), [&](Value token) {
        return llvm::is_contained(later, token);
      });
    }
    if (isa<gpu::SetDefaultDeviceOp>(op) || op->hasAttr(kUserAsync) ||
        isMemoryEffectFree(op))
      continue;
    return false;
  }
  return false;
}

/// Removes from `op`'s dependencies the tokens whose stream a host wait
/// ended (in `ended`); true when it removed any.
bool dropEnded(gpu::AsyncOpInterface op,
               const llvm::DenseSet<Operation *> &ended) {
  SmallVector<Value> kept;
  for (Value token : op.getAsyncDependencies())
    if (!ended.contains(streamOf(token)))
      kept.push_back(token);
  if (kept.size() == op.getAsyncDependencies().size())
    return false;
  Operation *raw = op.getOperation();
  if (kept.empty() && !isa<gpu::WaitOp>(raw)) {
    // A fresh stream: what the op waited for is complete.
    OpBuilder b(raw);
    kept.push_back(gpu::WaitOp::create(b, raw->getLoc(),
                                       gpu::AsyncTokenType::get(b.getContext()),
                                       ValueRange())
                       .getAsyncToken());
  }
  if (!kiln::host::setAsyncDependencies(raw, kept))
    raw->emitWarning("async op that uses a stream a host wait ended left as "
                     "it is");
  return true;
}

class GPUAsyncRegionPass
    : public kiln::impl::KilnGPUAsyncRegionBase<GPUAsyncRegionPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    fn.walk([](Operation *op) {
      if (auto async = dyn_cast<gpu::AsyncOpInterface>(op))
        if (async.getAsyncToken())
          op->setAttr(kUserAsync, UnitAttr::get(op->getContext()));
      if (isHostWait(op))
        op->setAttr(kUserWait, UnitAttr::get(op->getContext()));
    });

    OpPassManager upstream(func::FuncOp::getOperationName());
    upstream.addPass(createGpuAsyncRegionPass());
    if (failed(runPipeline(upstream, fn)))
      return signalPassFailure();

    // The waits gpu-async-region made that defer nothing.
    SmallVector<gpu::WaitOp> deferred;
    fn.walk([&](gpu::WaitOp wait) {
      if (isHostWait(wait) && !wait->hasAttr(kUserWait) && defersNothing(wait))
        deferred.push_back(wait);
    });
    for (gpu::WaitOp wait : deferred)
      wait.erase();

    // No stream waited twice: per block, in order.
    fn.walk([](Block *block) {
      llvm::DenseSet<Operation *> ended;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        auto async = dyn_cast<gpu::AsyncOpInterface>(&op);
        if (!async)
          continue;
        bool dropped = dropEnded(async, ended);
        if (isHostWait(&op)) {
          auto wait = cast<gpu::WaitOp>(&op);
          for (Value token : wait.getAsyncDependencies())
            ended.insert(streamOf(token));
          if (dropped && wait.getAsyncDependencies().empty())
            wait.erase();
        }
      }
    });

    fn.walk([](Operation *op) {
      op->removeAttr(kUserAsync);
      op->removeAttr(kUserWait);
    });
  }
};

} // namespace
