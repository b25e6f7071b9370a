//===- MemoryAccess.cpp - Memory accesses of the spirv-cpu target ---------===//
//
// How a kernel compiled for the CPU reaches memory. Loads and stores are
// upstream's (llvm.load, llvm.store); what is done here:
//
//  - atomics as LLVM atomics (seq_cst), since workgroups run on several
//    threads;
//  - buffer device addresses as host addresses;
//  - phase two: each global variable's address reached from the invocation
//    (a field of it, the binding the runtime passes, a slice of the
//    workgroup's or the invocation's memory);
//  - checked mode: before each load, store or atomic on a buffer or on
//    workgroup memory, a call of __kiln_spirv_cpu_check, which stops the
//    kernel when the access is out of bounds;
//  - otherwise, unless --unbounded-access, bounded accesses: each such
//    access compares its bytes with its binding's or variable's bounds and,
//    out of them, goes to a zero area (loads read zeros) or to a sink
//    (stores and atomics change nothing), as Vulkan's robustBufferAccess2
//    has it; an atomic out of bounds returns 0.
//
//===----------------------------------------------------------------------===//

#include "SPIRVToCPUInternal.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstddef>
#include <map>

using namespace mlir;
using namespace kiln::spirvtocpu;
namespace abi = kiln::spirvcpu;

//===----------------------------------------------------------------------===//
// Patterns: atomics and buffer device addresses
//===----------------------------------------------------------------------===//

namespace {

/// spirv.Atomic* with a value operand as llvm.atomicrmw.
template <typename Op, LLVM::AtomicBinOp bin>
struct AtomicRMWPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AtomicRMWOp>(
        op, bin, adaptor.getPointer(), adaptor.getValue(),
        LLVM::AtomicOrdering::seq_cst);
    return success();
  }
};

/// spirv.AtomicIIncrement / IDecrement: add or subtract one.
template <typename Op, LLVM::AtomicBinOp bin>
struct AtomicStepPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    Value one = LLVM::ConstantOp::create(rewriter, op.getLoc(), type,
                                         rewriter.getIntegerAttr(type, 1));
    rewriter.replaceOpWithNewOp<LLVM::AtomicRMWOp>(
        op, bin, adaptor.getPointer(), one, LLVM::AtomicOrdering::seq_cst);
    return success();
  }
};

template <typename Op>
struct AtomicCompareExchangePattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cmpxchg = LLVM::AtomicCmpXchgOp::create(
        rewriter, op.getLoc(), adaptor.getPointer(), adaptor.getComparator(),
        adaptor.getValue(), LLVM::AtomicOrdering::seq_cst,
        LLVM::AtomicOrdering::seq_cst);
    rewriter.replaceOpWithNewOp<LLVM::ExtractValueOp>(op, cmpxchg.getRes(),
                                                      ArrayRef<int64_t>{0});
    return success();
  }
};

/// Buffer device addresses are host addresses.
struct ConvertUToPtrPattern
    : public OpConversionPattern<spirv::ConvertUToPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::ConvertUToPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(
        op, LLVM::LLVMPointerType::get(op.getContext()), adaptor.getOperand());
    return success();
  }
};

struct ConvertPtrToUPattern
    : public OpConversionPattern<spirv::ConvertPtrToUOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::ConvertPtrToUOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, op.getType(),
                                                  adaptor.getPointer());
    return success();
  }
};

} // namespace

void kiln::spirvtocpu::populatePointerPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ConvertUToPtrPattern, ConvertPtrToUPattern>(
      converter, patterns.getContext(), /*benefit=*/10);
}

void kiln::spirvtocpu::populateAtomicPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  using Bin = LLVM::AtomicBinOp;
  patterns
      .add<AtomicRMWPattern<spirv::AtomicIAddOp, Bin::add>,
           AtomicRMWPattern<spirv::AtomicISubOp, Bin::sub>,
           AtomicRMWPattern<spirv::AtomicAndOp, Bin::_and>,
           AtomicRMWPattern<spirv::AtomicOrOp, Bin::_or>,
           AtomicRMWPattern<spirv::AtomicXorOp, Bin::_xor>,
           AtomicRMWPattern<spirv::AtomicSMaxOp, Bin::max>,
           AtomicRMWPattern<spirv::AtomicSMinOp, Bin::min>,
           AtomicRMWPattern<spirv::AtomicUMaxOp, Bin::umax>,
           AtomicRMWPattern<spirv::AtomicUMinOp, Bin::umin>,
           AtomicRMWPattern<spirv::AtomicExchangeOp, Bin::xchg>,
           AtomicRMWPattern<spirv::EXTAtomicFAddOp, Bin::fadd>,
           AtomicStepPattern<spirv::AtomicIIncrementOp, Bin::add>,
           AtomicStepPattern<spirv::AtomicIDecrementOp, Bin::sub>,
           AtomicCompareExchangePattern<spirv::AtomicCompareExchangeOp>,
           AtomicCompareExchangePattern<spirv::AtomicCompareExchangeWeakOp>>(
          converter, ctx, /*benefit=*/10);
}

//===----------------------------------------------------------------------===//
// Phase two: global addresses and checked accesses
//===----------------------------------------------------------------------===//

/// The root of an address: through GEPs to the value that phase two put in
/// place of a global's address (one of `roots`), or null.
template <typename Map>
static Value addressRoot(Value address, const Map &roots) {
  while (!roots.count(address)) {
    auto gep = address.getDefiningOp<LLVM::GEPOp>();
    if (!gep)
      return Value();
    address = gep.getBase();
  }
  return address;
}

CheckedRoots kiln::spirvtocpu::placeGlobalAddresses(OpBuilder &b,
                                                    LLVM::LLVMFuncOp fn,
                                                    Value invocation,
                                                    const ModuleState &state) {
  auto ptrType = LLVM::LLVMPointerType::get(fn.getContext());
  CheckedRoots checkedRoots;
  SmallVector<LLVM::AddressOfOp> addresses;
  fn.walk([&](LLVM::AddressOfOp a) { addresses.push_back(a); });
  for (LLVM::AddressOfOp address : addresses) {
    auto it = state.globals.find(address.getGlobalName());
    if (it == state.globals.end())
      continue;
    const GlobalPlace &place = it->second;
    b.setInsertionPoint(address);
    Location loc = address.getLoc();
    auto field = [&](uint64_t offset) -> Value {
      return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), invocation,
                                 ArrayRef<LLVM::GEPArg>{int32_t(offset)});
    };
    auto loadPtr = [&](Value at) -> Value {
      return LLVM::LoadOp::create(b, loc, ptrType, at);
    };
    Value replacement;
    switch (place.place) {
    case Place::BuiltIn:
      replacement = field(place.offset);
      break;
    case Place::Resource: {
      Value table = loadPtr(field(offsetof(abi::Invocation, resources)));
      Value slot =
          LLVM::GEPOp::create(b, loc, ptrType, ptrType, table,
                              ArrayRef<LLVM::GEPArg>{int32_t(place.index)});
      replacement = loadPtr(slot);
      checkedRoots[replacement] = {abi::AccessSpace::Resource, place.index};
      break;
    }
    case Place::PushConstants:
      replacement = loadPtr(field(offsetof(abi::Invocation, pushConstants)));
      break;
    case Place::Workgroup: {
      Value base = loadPtr(field(offsetof(abi::Invocation, workgroupMemory)));
      replacement =
          LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                              ArrayRef<LLVM::GEPArg>{int32_t(place.offset)});
      checkedRoots[replacement] = {abi::AccessSpace::Workgroup, place.index};
      break;
    }
    case Place::Private: {
      Value base = loadPtr(field(offsetof(abi::Invocation, privateMemory)));
      replacement =
          LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                              ArrayRef<LLVM::GEPArg>{int32_t(place.offset)});
      break;
    }
    }
    address.replaceAllUsesWith(replacement);
    address.erase();
  }
  return checkedRoots;
}

namespace {
/// A load, store or atomic of `fn` whose address comes from one of the
/// roots: checked mode checks it, the default bounds it.
struct RootedAccess {
  Operation *op;
  /// The address operand.
  unsigned operand;
  /// What it reads or writes.
  Type type;
  abi::AccessKind kind;
  /// The resource or workgroup variable the address comes from.
  std::pair<abi::AccessSpace, uint32_t> place;
};
} // namespace

/// Every access of `fn` on one of `roots`, found before any is changed.
static SmallVector<RootedAccess> rootedAccesses(LLVM::LLVMFuncOp fn,
                                                const CheckedRoots &roots) {
  SmallVector<RootedAccess> accesses;
  auto note = [&](Operation *op, unsigned operand, Type type,
                  abi::AccessKind kind) {
    if (Value root = addressRoot(op->getOperand(operand), roots))
      accesses.push_back({op, operand, type, kind, roots.lookup(root)});
  };
  fn.walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      note(op, 0, load.getType(), abi::AccessKind::Read);
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      note(op, 1, store.getValue().getType(), abi::AccessKind::Write);
    else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
      note(op, 0, rmw.getVal().getType(), abi::AccessKind::Atomic);
    else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
      note(op, 0, cmpxchg.getVal().getType(), abi::AccessKind::Atomic);
  });
  return accesses;
}

void kiln::spirvtocpu::insertAccessChecks(OpBuilder &b, ModuleOp converted,
                                          LLVM::LLVMFuncOp fn, Value invocation,
                                          const DataLayout &layout,
                                          ModuleState &state,
                                          const CheckedRoots &checkedRoots) {
  MLIRContext *ctx = fn.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  // Checked mode: every access to a buffer or to workgroup memory asks the
  // runtime first.
  auto checkFnType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx),
      {ptrType, b.getI32Type(), b.getI32Type(), b.getI32Type(), b.getI32Type(),
       ptrType, b.getI64Type()});
  LLVM::LLVMFuncOp checkFn =
      declareFunction(b, converted, kCheckFn, checkFnType);
  for (const RootedAccess &access : rootedAccesses(fn, checkedRoots)) {
    Operation *op = access.op;
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value bytes = LLVM::ConstantOp::create(
        b, loc, b.getI64Type(),
        b.getI64IntegerAttr(layout.getTypeSize(access.type).getFixedValue()));
    LLVM::CallOp::create(
        b, loc, checkFn,
        ValueRange{invocation, i32Constant(b, loc, state.site(loc)),
                   i32Constant(b, loc, uint32_t(access.kind)),
                   i32Constant(b, loc, uint32_t(access.place.first)),
                   i32Constant(b, loc, access.place.second),
                   op->getOperand(access.operand), bytes});
  }
}

//===----------------------------------------------------------------------===//
// Bounded accesses
//===----------------------------------------------------------------------===//

namespace {
/// The bounds a function's accesses compare with, loaded once in its entry
/// block from the invocation's table (invariant loads, which LLVM hoists
/// and shares).
class Bounds {
public:
  Bounds(OpBuilder &b, LLVM::LLVMFuncOp fn, Value invocation,
         const ModuleState &state)
      : b(b), state(state), loc(fn.getLoc()) {
    MLIRContext *ctx = fn.getContext();
    ptrType = LLVM::LLVMPointerType::get(ctx);
    b.setInsertionPointToStart(&fn.getBody().front());
    Value field = LLVM::GEPOp::create(
        b, loc, ptrType, b.getI8Type(), invocation,
        ArrayRef<LLVM::GEPArg>{int32_t(offsetof(abi::Invocation, bounds))});
    table = load(ptrType, field);
    zeros = entry(ptrType, abi::kBoundsZeros);
    sink = entry(ptrType, abi::kBoundsSink);
    insertionPoint = b.saveInsertionPoint();
  }

  /// The [lo, hi) byte addresses of resource or workgroup variable `index`.
  std::pair<Value, Value> of(abi::AccessSpace space, uint32_t index) {
    auto key = std::make_pair(uint32_t(space), index);
    auto it = cache.find(key);
    if (it != cache.end())
      return it->second;
    uint32_t at = space == abi::AccessSpace::Resource
                      ? abi::boundsOfResource(index)
                      : abi::boundsOfWorkgroupVar(
                            uint32_t(state.resources.size()), index);
    OpBuilder::InsertionGuard guard(b);
    b.restoreInsertionPoint(insertionPoint);
    std::pair<Value, Value> bounds{entry(b.getI64Type(), at),
                                   entry(b.getI64Type(), at + 1)};
    insertionPoint = b.saveInsertionPoint();
    return cache[key] = bounds;
  }

  Value zeros, sink;

private:
  Value load(Type type, Value address) {
    auto op = LLVM::LoadOp::create(b, loc, type, address, /*alignment=*/8);
    op.setInvariant(true);
    return op;
  }
  Value entry(Type type, uint32_t index) {
    Value at = LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), table,
                                   ArrayRef<LLVM::GEPArg>{int32_t(index)});
    return load(type, at);
  }

  OpBuilder &b;
  const ModuleState &state;
  Location loc;
  Type ptrType;
  Value table;
  OpBuilder::InsertPoint insertionPoint;
  std::map<std::pair<uint32_t, uint32_t>, std::pair<Value, Value>> cache;
};
} // namespace

LogicalResult kiln::spirvtocpu::boundAccesses(OpBuilder &b, LLVM::LLVMFuncOp fn,
                                              Value invocation,
                                              const DataLayout &layout,
                                              const ModuleState &state,
                                              const CheckedRoots &roots) {
  SmallVector<RootedAccess> accesses = rootedAccesses(fn, roots);
  if (accesses.empty())
    return success();

  Bounds bounds(b, fn, invocation, state);
  Type i64 = b.getI64Type();
  for (const RootedAccess &access : accesses) {
    uint64_t bytes = layout.getTypeSize(access.type).getFixedValue();
    if (bytes > abi::kBoundsScratchBytes)
      return access.op->emitError("an access of ")
             << bytes << " bytes is above the " << abi::kBoundsScratchBytes
             << " a bounded access of the spirv-cpu target may make; access "
                "fewer bytes at a time, or compile with --unbounded-access "
                "or --checked";
    auto [lo, hi] = bounds.of(access.place.first, access.place.second);
    Operation *op = access.op;
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    Value address = op->getOperand(access.operand);
    Value first = LLVM::PtrToIntOp::create(b, loc, i64, address);
    Value end = LLVM::AddOp::create(
        b, loc, first,
        LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(bytes)));
    Value atOrAfterLo =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, first, lo);
    Value endsByHi =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ule, end, hi);
    Value inside = LLVM::AndOp::create(b, loc, atOrAfterLo, endsByHi);
    bool reads = access.kind == abi::AccessKind::Read;
    Value safe = LLVM::SelectOp::create(b, loc, inside, address,
                                        reads ? bounds.zeros : bounds.sink);
    op->setOperand(access.operand, safe);
    if (access.kind != abi::AccessKind::Atomic)
      continue;
    // An atomic out of bounds returns 0 (a compare-exchange: 0, failed).
    Value result = op->getResult(0);
    b.setInsertionPointAfter(op);
    Value zero = LLVM::ZeroOp::create(b, loc, result.getType());
    Value chosen = LLVM::SelectOp::create(b, loc, inside, result, zero);
    result.replaceAllUsesExcept(chosen, chosen.getDefiningOp());
  }
  return success();
}
