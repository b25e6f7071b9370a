//===- SyncHostSharedAlloc.cpp - host_shared allocations gpu-to-llvm takes -===//

#include "kiln/Host/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSYNCHOSTSHAREDALLOC
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class SyncHostSharedAllocPass
    : public kiln::impl::KilnSyncHostSharedAllocBase<SyncHostSharedAllocPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    SmallVector<gpu::AllocOp> allocs;
    getOperation().walk([&](gpu::AllocOp alloc) {
      if (alloc.getHostShared() && alloc.getAsyncToken())
        allocs.push_back(alloc);
    });
    for (gpu::AllocOp alloc : allocs) {
      OpBuilder builder(alloc);
      Location loc = alloc.getLoc();
      if (!alloc.getAsyncDependencies().empty())
        gpu::WaitOp::create(builder, loc, Type(), alloc.getAsyncDependencies());
      auto sync = gpu::AllocOp::create(
          builder, loc, alloc.getMemref().getType(), Type(), ValueRange(),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/true);
      auto token = gpu::WaitOp::create(
          builder, loc, gpu::AsyncTokenType::get(&getContext()), ValueRange());
      alloc.getMemref().replaceAllUsesWith(sync.getMemref());
      alloc.getAsyncToken().replaceAllUsesWith(token.getAsyncToken());
      alloc.erase();
    }
  }
};
} // namespace
