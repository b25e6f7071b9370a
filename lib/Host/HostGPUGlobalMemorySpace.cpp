//===- HostGPUGlobalMemorySpace.cpp - Host memrefs of device buffers ------===//

#include "kiln/Host/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln {
#define GEN_PASS_DEF_KILNHOSTGPUGLOBALMEMORYSPACE
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
bool isGPUGlobal(Attribute space) {
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  return gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global;
}

class HostGPUGlobalMemorySpacePass
    : public kiln::impl::KilnHostGPUGlobalMemorySpaceBase<
          HostGPUGlobalMemorySpacePass> {
public:
  using Base::Base;
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      if (!isGPUGlobal(type.getMemorySpace()))
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout(), Attribute());
    });
    replacer.addReplacement(
        [](UnrankedMemRefType type) -> std::optional<Type> {
          if (!isGPUGlobal(type.getMemorySpace()))
            return std::nullopt;
          return UnrankedMemRefType::get(type.getElementType(), Attribute());
        });
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Device code keeps its address spaces.
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false, /*replaceTypes=*/true);
      return WalkResult::advance();
    });
  }
};
} // namespace
