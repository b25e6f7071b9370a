//===- RegisterHostMemRefs.cpp - Host memory passed to CUDA kernels -------===//

#include "kiln/Host/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace kiln {
#define GEN_PASS_DEF_KILNREGISTERHOSTMEMREFS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// True unless `value` is (a view of) memory from gpu.alloc.
bool mayBeHostMemory(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<gpu::AllocOp>(def))
      return false;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return true;
    value = view.getViewSource();
  }
  return true;
}

/// The first synchronous gpu.wait in `launch`'s block that waits for
/// `token`, directly or through the async ops that depend on it; null when
/// there is none there.
static gpu::WaitOp hostWaitFor(Value token, Operation *launch) {
  gpu::WaitOp first;
  SmallVector<Value> work{token};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value t = work.pop_back_val();
    if (!seen.insert(t).second)
      continue;
    for (Operation *user : t.getUsers()) {
      auto wait = dyn_cast<gpu::WaitOp>(user);
      if (wait && !wait.getAsyncToken()) {
        if (wait->getBlock() == launch->getBlock() &&
            launch->isBeforeInBlock(wait) &&
            (!first || wait->isBeforeInBlock(first)))
          first = wait;
        continue;
      }
      if (auto async = dyn_cast<gpu::AsyncOpInterface>(user))
        if (Value next = async.getAsyncToken())
          work.push_back(next);
    }
  }
  return first;
}

class RegisterHostMemRefsPass
    : public kiln::impl::KilnRegisterHostMemRefsBase<RegisterHostMemRefsPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    SmallVector<gpu::LaunchFuncOp> launches;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      if (!launch->getParentOfType<gpu::GPUModuleOp>())
        launches.push_back(launch);
    });
    for (gpu::LaunchFuncOp launch : launches) {
      OpBuilder builder(launch);
      SmallVector<Value> registered;
      llvm::SmallPtrSet<Value, 4> seen;
      for (Value operand : launch.getKernelOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type || !seen.insert(operand).second || !mayBeHostMemory(operand))
          continue;
        auto unranked = UnrankedMemRefType::get(type.getElementType(),
                                                type.getMemorySpace());
        Value cast =
            memref::CastOp::create(builder, launch.getLoc(), unranked, operand);
        gpu::HostRegisterOp::create(builder, launch.getLoc(), cast);
        registered.push_back(cast);
      }
      if (registered.empty())
        continue;
      builder.setInsertionPointAfter(launch);
      // The memory stays registered until the kernel is done with it: after
      // the program's own host wait for an async launch, where it has one
      // in the same block; else a wait here. (A second wait on the token
      // would synchronize and destroy its stream twice.)
      if (Value token = launch.getAsyncToken()) {
        if (gpu::WaitOp wait = hostWaitFor(token, launch))
          builder.setInsertionPointAfter(wait);
        else
          gpu::WaitOp::create(builder, launch.getLoc(), Type(),
                              ValueRange{token});
      }
      for (Value cast : registered)
        gpu::HostUnregisterOp::create(builder, launch.getLoc(), cast);
    }
  }
};
} // namespace
