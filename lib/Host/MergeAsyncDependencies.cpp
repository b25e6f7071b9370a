//===- MergeAsyncDependencies.cpp - One token per async GPU op ------------===//
//
// gpu-to-llvm lowers an async gpu op (launch_func, memcpy, memset, alloc,
// dealloc) onto the stream of its one async dependency and refuses one with
// several. Programs that use several streams have them, and so has every
// function gpu-async-region threads its token through after the program's
// own `gpu.wait async`. This pass joins the dependencies of such an op in a
// `gpu.wait async [deps...]` (a fresh stream that waits for events on the
// others: the runtimes' mgpuEventRecord / mgpuStreamWaitEvent) and makes
// that the op's only dependency.
//
//===----------------------------------------------------------------------===//

#include "AsyncDependencies.h"
#include "kiln/Host/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace kiln {
#define GEN_PASS_DEF_KILNMERGEASYNCDEPENDENCIES
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class MergeAsyncDependenciesPass
    : public kiln::impl::KilnMergeAsyncDependenciesBase<
          MergeAsyncDependenciesPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    SmallVector<gpu::AsyncOpInterface> ops;
    getOperation()->walk([&](gpu::AsyncOpInterface op) {
      if (!isa<gpu::WaitOp>(op.getOperation()) &&
          op.getAsyncDependencies().size() > 1)
        ops.push_back(op);
    });
    for (gpu::AsyncOpInterface op : ops) {
      OpBuilder b(op.getOperation());
      SmallVector<Value> deps(op.getAsyncDependencies());
      auto join = gpu::WaitOp::create(
          b, op->getLoc(), gpu::AsyncTokenType::get(op->getContext()), deps);
      Value token = join.getAsyncToken();
      if (!kiln::host::setAsyncDependencies(op.getOperation(), token))
        op->emitWarning("async op with several dependencies left as it is");
    }
  }
};
} // namespace
