//===- CheckCUDALimits.cpp - CUDA's launch limits before the driver -------===//
//
// What every NVIDIA GPU refuses at launch, refused at compile time with the
// launch's location: more than 1024 threads per block or per x/y dimension,
// more than 64 in z, grids past 2^31-1 blocks in x or 65535 in y and z, and
// more than 48 KiB of static shared memory per block (workgroup
// attributions and workgroup-space globals the kernel uses).
//
//===----------------------------------------------------------------------===//

#include "kiln/Conversion/GPUToNVVM/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCHECKCUDALIMITS
#include "kiln/Conversion/GPUToNVVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxBlockDim[3] = {1024, 1024, 64};
constexpr int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
constexpr const char *kDims[3] = {"x", "y", "z"};
} // namespace

/// Bytes of a statically shaped memref, or nullopt.
static std::optional<int64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  Type element = type.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if (auto vec = dyn_cast<VectorType>(element))
    bits = vec.getNumElements() * vec.getElementType().getIntOrFloatBitWidth();
  if (bits == 0)
    return std::nullopt;
  return type.getNumElements() * ((bits + 7) / 8);
}

static bool isWorkgroupSpace(Attribute space) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto intSpace = dyn_cast_or_null<IntegerAttr>(space))
    return intSpace.getInt() == 3;
  return false;
}

static LogicalResult checkSharedMemory(gpu::GPUFuncOp fn,
                                       SymbolTable &moduleTable) {
  int64_t bytes = 0;
  for (BlockArgument arg : fn.getWorkgroupAttributions())
    if (auto type = dyn_cast<MemRefType>(arg.getType()))
      bytes += staticBytes(type).value_or(0);
  llvm::SmallPtrSet<Operation *, 4> globals;
  fn.walk([&](memref::GetGlobalOp get) {
    auto global = moduleTable.lookup<memref::GlobalOp>(get.getName());
    if (global && isWorkgroupSpace(global.getType().getMemorySpace()) &&
        globals.insert(global).second)
      bytes += staticBytes(global.getType()).value_or(0);
  });
  if (bytes <= kMaxStaticSharedBytes)
    return success();
  return fn.emitError("kernel '")
         << fn.getName() << "' uses " << bytes
         << " bytes of static shared memory; CUDA allows at most "
         << kMaxStaticSharedBytes << " (48 KiB) per block";
}

static LogicalResult checkLaunch(gpu::LaunchFuncOp launch) {
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  Value blockDims[3] = {block.x, block.y, block.z};
  Value gridDims[3] = {grid.x, grid.y, grid.z};
  std::string kernel = launch.getKernelName().str();
  int64_t threads = 1;
  bool allKnown = true;
  for (int d = 0; d < 3; ++d) {
    APInt value;
    if (!matchPattern(blockDims[d], m_ConstantInt(&value))) {
      allKnown = false;
      continue;
    }
    int64_t n = value.getSExtValue();
    if (n < 1 || n > kMaxBlockDim[d])
      return launch.emitError("launch of kernel '")
             << kernel << "' has " << n << " threads in block dimension "
             << kDims[d] << "; CUDA allows 1 to " << kMaxBlockDim[d];
    threads *= n;
  }
  if (allKnown && threads > kMaxThreadsPerBlock)
    return launch.emitError("launch of kernel '")
           << kernel << "' has " << threads
           << " threads per block; CUDA allows at most "
           << kMaxThreadsPerBlock;
  for (int d = 0; d < 3; ++d) {
    APInt value;
    if (!matchPattern(gridDims[d], m_ConstantInt(&value)))
      continue;
    int64_t n = value.getSExtValue();
    if (n < 1 || n > kMaxGridDim[d])
      return launch.emitError("launch of kernel '")
             << kernel << "' has " << n << " blocks in grid dimension "
             << kDims[d] << "; CUDA allows 1 to " << kMaxGridDim[d];
  }
  return success();
}

namespace {
class CheckCUDALimitsPass
    : public kiln::impl::KilnCheckCUDALimitsBase<CheckCUDALimitsPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      failed |= mlir::failed(checkLaunch(launch));
    });
    getOperation().walk([&](gpu::GPUModuleOp module) {
      SymbolTable table(module);
      for (auto fn : module.getOps<gpu::GPUFuncOp>())
        if (fn.isKernel())
          failed |= mlir::failed(checkSharedMemory(fn, table));
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
