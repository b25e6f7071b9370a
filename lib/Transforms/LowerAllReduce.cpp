//===- LowerAllReduce.cpp - Workgroup reductions through shared memory ----===//
//
// gpu.all_reduce, uniform or not, with an operation or a body, becomes a
// tree reduction in one workgroup-memory buffer per element type: every
// invocation stores its value, then log2(n) halving steps combine pairs
// between barriers, and every invocation reads the result from element 0.
// The same code serves SPIR-V and NVVM, for every workgroup size the device
// allows (also sizes that are not powers of two, and sizes known only at
// run time on CUDA).
//
//===----------------------------------------------------------------------===//

#include "kiln/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERALLREDUCE
#include "kiln/Transforms/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// What every reduction of one kernel shares.
struct KernelContext {
  gpu::GPUFuncOp fn;
  /// Invocations per workgroup when the kernel fixes it.
  std::optional<int64_t> staticSize;
  /// Elements of each buffer: the workgroup size, or `maxInvocations`.
  int64_t bufferSize;
  llvm::DenseMap<Type, Value> buffers;
};

} // namespace

/// The workgroup size a kernel fixes: its known_block_size (set by outlining
/// when the launch's block size is constant) or its entry point ABI.
static std::optional<int64_t> staticWorkgroupSize(gpu::GPUFuncOp fn) {
  if (std::optional<ArrayRef<int32_t>> known = fn.getKnownBlockSize())
    return int64_t((*known)[0]) * (*known)[1] * (*known)[2];
  if (spirv::EntryPointABIAttr abi = spirv::lookupEntryPointABI(fn))
    if (DenseI32ArrayAttr size = abi.getWorkgroupSize()) {
      int64_t n = 1;
      for (int32_t d : size.asArrayRef())
        n *= d;
      return n;
    }
  return std::nullopt;
}

/// The linear id of this invocation in its workgroup, and the workgroup's
/// size (a constant when the kernel fixes it).
static std::pair<Value, Value> linearId(OpBuilder &b, Location loc,
                                        const KernelContext &k) {
  auto id = [&](gpu::Dimension d) -> Value {
    return gpu::ThreadIdOp::create(b, loc, d);
  };
  auto dim = [&](gpu::Dimension d) -> Value {
    return gpu::BlockDimOp::create(b, loc, d);
  };
  Value bx = dim(gpu::Dimension::x), by = dim(gpu::Dimension::y);
  Value tid = arith::AddIOp::create(
      b, loc, id(gpu::Dimension::x),
      arith::MulIOp::create(
          b, loc, bx,
          arith::AddIOp::create(
              b, loc, id(gpu::Dimension::y),
              arith::MulIOp::create(b, loc, by, id(gpu::Dimension::z)))));
  Value size;
  if (k.staticSize)
    size = arith::ConstantIndexOp::create(b, loc, *k.staticSize);
  else
    size = arith::MulIOp::create(
        b, loc, arith::MulIOp::create(b, loc, bx, by),
        dim(gpu::Dimension::z));
  return {tid, size};
}

/// Combines `lhs` and `rhs` as `op` says: its operation, or its body.
static FailureOr<Value> combine(OpBuilder &b, Location loc,
                                gpu::AllReduceOp op, Value lhs, Value rhs) {
  if (std::optional<gpu::AllReduceOperation> kind = op.getOp())
    return vector::makeArithReduction(b, loc, gpu::convertReductionKind(*kind),
                                      lhs, rhs);
  Region &body = op.getBody();
  if (!body.hasOneBlock())
    return op.emitOpError("with a body of more than one block is not "
                          "supported by Kiln's lowering");
  Block &block = body.front();
  IRMapping map;
  map.map(block.getArgument(0), lhs);
  map.map(block.getArgument(1), rhs);
  for (Operation &inner : block.without_terminator())
    b.clone(inner, map);
  auto yield = dyn_cast<gpu::YieldOp>(block.getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return op.emitOpError("body must end in a gpu.yield of one value");
  return map.lookupOrDefault(yield.getOperand(0));
}

static LogicalResult lowerOne(gpu::AllReduceOp op, KernelContext &k) {
  Location loc = op.getLoc();
  Type type = op.getType();
  if (!type.isIntOrIndexOrFloat())
    return op.emitOpError("of ")
           << type << " is not supported by Kiln's lowering (scalars only)";

  // One buffer per element type, reused by later reductions: each ends in a
  // barrier after which the buffer is free again.
  Value &buffer = k.buffers[type];
  if (!buffer) {
    auto space = gpu::AddressSpaceAttr::get(op.getContext(),
                                            gpu::AddressSpace::Workgroup);
    auto memrefType = MemRefType::get({k.bufferSize}, type,
                                      MemRefLayoutAttrInterface(), space);
    buffer = k.fn.addWorkgroupAttribution(memrefType, loc);
  }

  OpBuilder b(op);
  auto [tid, size] = linearId(b, loc, k);
  memref::StoreOp::create(b, loc, op.getValue(), buffer, tid);
  gpu::BarrierOp::create(b, loc);
  int64_t first = k.staticSize
                      ? int64_t(llvm::PowerOf2Ceil(*k.staticSize)) / 2
                      : k.bufferSize / 2;
  // The partner may be past the end when the size is not a power of two.
  bool guardPartner = !k.staticSize || !llvm::isPowerOf2_64(*k.staticSize);
  for (int64_t step = first; step >= 1; step /= 2) {
    Value s = arith::ConstantIndexOp::create(b, loc, step);
    Value partner = arith::AddIOp::create(b, loc, tid, s);
    Value active =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, s);
    if (guardPartner)
      active = arith::AndIOp::create(
          b, loc, active,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, partner,
                                size));
    auto ifOp = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
    OpBuilder inner = ifOp.getThenBodyBuilder();
    Value mine = memref::LoadOp::create(inner, loc, buffer, tid);
    Value theirs = memref::LoadOp::create(inner, loc, buffer, partner);
    FailureOr<Value> combined = combine(inner, loc, op, mine, theirs);
    if (failed(combined))
      return failure();
    memref::StoreOp::create(inner, loc, *combined, buffer, tid);
    gpu::BarrierOp::create(b, loc);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value result = memref::LoadOp::create(b, loc, buffer, zero);
  gpu::BarrierOp::create(b, loc);
  op.replaceAllUsesWith(result);
  op.erase();
  return success();
}

namespace {
class LowerAllReducePass
    : public kiln::impl::KilnLowerAllReduceBase<LowerAllReducePass> {
public:
  using Base::Base;
  void runOnOperation() override {
    bool failed = false;
    for (auto fn : getOperation().getOps<gpu::GPUFuncOp>()) {
      SmallVector<gpu::AllReduceOp> ops;
      fn.walk([&](gpu::AllReduceOp op) { ops.push_back(op); });
      if (ops.empty())
        continue;
      KernelContext k;
      k.fn = fn;
      k.staticSize = staticWorkgroupSize(fn);
      k.bufferSize = k.staticSize ? *k.staticSize : int64_t(maxInvocations);
      if (k.staticSize && *k.staticSize > int64_t(maxInvocations)) {
        fn.emitError("kernel '")
            << fn.getName() << "' has " << *k.staticSize
            << " invocations per workgroup; gpu.all_reduce supports at most "
            << unsigned(maxInvocations);
        failed = true;
        continue;
      }
      for (gpu::AllReduceOp op : ops)
        failed |= mlir::failed(lowerOne(op, k));
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
