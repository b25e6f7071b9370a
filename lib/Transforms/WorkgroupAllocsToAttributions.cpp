//===- WorkgroupAllocsToAttributions.cpp - Shared memory as attributions --===//
//
// A workgroup-memory allocation inside a kernel is the kernel's shared
// memory; both targets lower workgroup attributions, and NVVM would lower
// the allocation itself to a per-thread device-heap malloc. Each one becomes
// a workgroup attribution of its kernel.
//
//===----------------------------------------------------------------------===//

#include "kiln/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln {
#define GEN_PASS_DEF_KILNWORKGROUPALLOCSTOATTRIBUTIONS
#include "kiln/Transforms/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
class WorkgroupAllocsToAttributions
    : public kiln::impl::KilnWorkgroupAllocsToAttributionsBase<
          WorkgroupAllocsToAttributions> {
public:
  void runOnOperation() override {
    bool failed = false;
    for (auto fn : getOperation().getOps<gpu::GPUFuncOp>())
      failed |= mlir::failed(convert(fn));
    if (failed)
      signalPassFailure();
  }

private:
  static LogicalResult convert(gpu::GPUFuncOp fn) {
    SmallVector<Operation *> allocs;
    fn.walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
        allocs.push_back(op);
    });
    for (Operation *op : allocs) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (!type.hasStaticShape() || op->getNumOperands() != 0 ||
          !type.getLayout().isIdentity())
        return op->emitOpError("of workgroup memory in kernel '")
               << fn.getName() << "' has type " << type
               << "; workgroup memory needs a static shape and an identity "
                  "layout (use gpu.dynamic_shared_memory for a size known "
                  "at launch)";
      if (!fn.isKernel())
        return op->emitOpError("of workgroup memory in device function '")
               << fn.getName()
               << "'; workgroup memory belongs to a kernel: allocate it "
                  "there and pass it down";
      Value memory = op->getResult(0);
      for (Operation *user : llvm::make_early_inc_range(memory.getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      BlockArgument attribution =
          fn.addWorkgroupAttribution(type, op->getLoc());
      memory.replaceAllUsesWith(attribution);
      op->erase();
    }
    return success();
  }
};
} // namespace
