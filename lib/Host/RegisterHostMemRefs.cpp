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
      // The memory stays registered until the kernel is done with it: an
      // async launch is waited for here.
      if (Value token = launch.getAsyncToken())
        gpu::WaitOp::create(builder, launch.getLoc(), Type(),
                            ValueRange{token});
      for (Value cast : registered)
        gpu::HostUnregisterOp::create(builder, launch.getLoc(), cast);
    }
  }
};
} // namespace
