//===- BarriersAndSubgroups.cpp - Barriers, subgroup ops as runtime calls -===//
//
// The spirv-cpu runtime runs the invocations of a workgroup as fibers, so
// what makes invocations wait for each other is a call of the runtime: a
// Workgroup-scope spirv.ControlBarrier calls __kiln_spirv_cpu_barrier, a
// Subgroup-scope one and each spirv.GroupNonUniform* op
// __kiln_spirv_cpu_subgroup, with the value and the result through allocas
// (include/kiln/Contract/SPIRVCPUABI.h). A spirv.MemoryBarrier is a fence.
//
//===----------------------------------------------------------------------===//

#include "SPIRVToCPUInternal.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace kiln::spirvtocpu;
namespace abi = kiln::spirvcpu;

namespace {

/// An alloca of one `type` that phase two hoists into the entry block.
Value hoistedAlloca(OpBuilder &b, Location loc, Type type) {
  Value one =
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
  auto alloca = LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), type, one, 16);
  alloca->setAttr(kHoistAttr, b.getUnitAttr());
  return alloca;
}

/// A call of a runtime function with the invocation left out: phase two
/// adds it, as to every call of a function of the module.
void callRuntime(ConversionPatternRewriter &rewriter, Operation *op,
                 StringRef name, ValueRange args) {
  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<Type> types;
  for (Value a : args)
    types.push_back(a.getType());
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(op->getContext()), types);
  LLVM::LLVMFuncOp fn = declareFunction(rewriter, module, name, type);
  LLVM::CallOp::create(rewriter, op->getLoc(), fn, args);
}

/// The subgroup operation that stands for a subgroup-scope control barrier:
/// an Elect, whose result is dropped, waits for the active invocations.
void subgroupSync(ConversionPatternRewriter &rewriter, Operation *op,
                  ModuleState &state) {
  Location loc = op->getLoc();
  Value result = hoistedAlloca(rewriter, loc, rewriter.getI8Type());
  Value null = LLVM::ZeroOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(op->getContext()));
  callRuntime(rewriter, op, kSubgroupFn,
              {i32Constant(rewriter, loc, state.site(loc)),
               i32Constant(rewriter, loc, uint32_t(abi::SubgroupOp::Elect)),
               i32Constant(rewriter, loc, uint32_t(abi::ScalarKind::Bool)),
               i32Constant(rewriter, loc, 1), null, result,
               i32Constant(rewriter, loc, 0)});
  state.usesSubgroupOps = true;
}

struct ControlBarrierPattern
    : public OpConversionPattern<spirv::ControlBarrierOp> {
  ControlBarrierPattern(MLIRContext *context, ModuleState &state)
      : OpConversionPattern(context, /*benefit=*/10), state(state) {}
  LogicalResult
  matchAndRewrite(spirv::ControlBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::seq_cst);
    if (op.getExecutionScope() == spirv::Scope::Subgroup) {
      subgroupSync(rewriter, op, state);
    } else {
      callRuntime(rewriter, op, kBarrierFn,
                  {i32Constant(rewriter, loc, state.site(loc))});
      state.usesBarrier = true;
    }
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::seq_cst);
    rewriter.eraseOp(op);
    return success();
  }
  ModuleState &state;
};

struct MemoryBarrierPattern
    : public OpConversionPattern<spirv::MemoryBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::MemoryBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FenceOp>(op,
                                               LLVM::AtomicOrdering::seq_cst);
    return success();
  }
};

/// The element kind of a subgroup operation's value type, or nullopt.
std::optional<abi::ScalarKind> scalarKind(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  if (type.isInteger(1))
    return abi::ScalarKind::Bool;
  if (type.isInteger(8))
    return abi::ScalarKind::I8;
  if (type.isInteger(16))
    return abi::ScalarKind::I16;
  if (type.isInteger(32))
    return abi::ScalarKind::I32;
  if (type.isInteger(64))
    return abi::ScalarKind::I64;
  if (type.isF16())
    return abi::ScalarKind::F16;
  if (type.isF32())
    return abi::ScalarKind::F32;
  if (type.isF64())
    return abi::ScalarKind::F64;
  return std::nullopt;
}

template <typename T>
using GroupOperationOf = decltype(std::declval<T &>().getGroupOperation());

/// A spirv.GroupNonUniform* op as a call of __kiln_spirv_cpu_subgroup:
/// operand and result through allocas. `argIndex` is the operand that is
/// the call's `arg` (an id, a mask, a delta), or -1.
template <typename Op> struct SubgroupPattern : public OpConversionPattern<Op> {
  SubgroupPattern(const TypeConverter &converter, MLIRContext *context,
                  ModuleState &state, abi::SubgroupOp kind, int argIndex)
      : OpConversionPattern<Op>(converter, context, /*benefit=*/10),
        state(state), kind(kind), argIndex(argIndex) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperands();
    auto ptrType = LLVM::LLVMPointerType::get(op.getContext());
    Value valuePtr = LLVM::ZeroOp::create(rewriter, loc, ptrType);
    Type valueType = rewriter.getI1Type();
    uint32_t components = 1;
    bool hasValue = kind != abi::SubgroupOp::Elect;
    if (hasValue) {
      Value value = operands[0];
      valueType = op->getOperand(0).getType();
      if (auto vector = dyn_cast<VectorType>(valueType))
        components = vector.getNumElements();
      valuePtr = hoistedAlloca(rewriter, loc, value.getType());
      LLVM::StoreOp::create(rewriter, loc, value, valuePtr);
    }
    std::optional<abi::ScalarKind> elementKind = scalarKind(valueType);
    if (!elementKind)
      return rewriter.notifyMatchFailure(op, "unsupported value type");

    Value arg = i32Constant(rewriter, loc, 0);
    if constexpr (llvm::is_detected<GroupOperationOf, Op>::value) {
      uint32_t encoded;
      switch (op.getGroupOperation()) {
      case spirv::GroupOperation::Reduce:
        encoded = uint32_t(abi::GroupOperation::Reduce);
        break;
      case spirv::GroupOperation::InclusiveScan:
        encoded = uint32_t(abi::GroupOperation::InclusiveScan);
        break;
      case spirv::GroupOperation::ExclusiveScan:
        encoded = uint32_t(abi::GroupOperation::ExclusiveScan);
        break;
      case spirv::GroupOperation::ClusteredReduce: {
        encoded = uint32_t(abi::GroupOperation::ClusteredReduce);
        // The verifier requires a constant cluster size.
        APInt size;
        if (!op.getClusterSize() ||
            !matchPattern(op.getClusterSize(), m_ConstantInt(&size)))
          return rewriter.notifyMatchFailure(op, "no constant cluster size");
        encoded |= uint32_t(size.getZExtValue()) << 8;
        break;
      }
      default:
        return rewriter.notifyMatchFailure(op, "unsupported group operation");
      }
      arg = i32Constant(rewriter, loc, encoded);
    } else if (argIndex >= 0) {
      arg = operands[argIndex];
      auto intType = cast<IntegerType>(arg.getType());
      if (intType.getWidth() > 32)
        arg = LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), arg);
      else if (intType.getWidth() < 32)
        arg = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), arg);
    }

    Type resultType =
        this->getTypeConverter()->convertType(op->getResult(0).getType());
    Value resultPtr = hoistedAlloca(rewriter, loc, resultType);
    callRuntime(rewriter, op, kSubgroupFn,
                {i32Constant(rewriter, loc, state.site(loc)),
                 i32Constant(rewriter, loc, uint32_t(kind)),
                 i32Constant(rewriter, loc, uint32_t(*elementKind)),
                 i32Constant(rewriter, loc, components), valuePtr, resultPtr,
                 arg});
    state.usesSubgroupOps = true;
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, resultPtr);
    return success();
  }

  ModuleState &state;
  abi::SubgroupOp kind;
  int argIndex;
};

} // namespace

void kiln::spirvtocpu::populateBarrierPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               ModuleState &state) {
  patterns.add<MemoryBarrierPattern>(converter, patterns.getContext(),
                                     /*benefit=*/10);
  patterns.add<ControlBarrierPattern>(patterns.getContext(), state);
}

void kiln::spirvtocpu::populateSubgroupPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                ModuleState &state) {
  MLIRContext *ctx = patterns.getContext();
  using K = abi::SubgroupOp;
#define KILN_SUBGROUP(OP, KIND, ARG)                                           \
  patterns.add<SubgroupPattern<spirv::OP>>(converter, ctx, state, K::KIND, ARG)
  KILN_SUBGROUP(GroupNonUniformIAddOp, IAdd, -1);
  KILN_SUBGROUP(GroupNonUniformIMulOp, IMul, -1);
  KILN_SUBGROUP(GroupNonUniformFAddOp, FAdd, -1);
  KILN_SUBGROUP(GroupNonUniformFMulOp, FMul, -1);
  KILN_SUBGROUP(GroupNonUniformSMinOp, SMin, -1);
  KILN_SUBGROUP(GroupNonUniformSMaxOp, SMax, -1);
  KILN_SUBGROUP(GroupNonUniformUMinOp, UMin, -1);
  KILN_SUBGROUP(GroupNonUniformUMaxOp, UMax, -1);
  KILN_SUBGROUP(GroupNonUniformFMinOp, FMin, -1);
  KILN_SUBGROUP(GroupNonUniformFMaxOp, FMax, -1);
  KILN_SUBGROUP(GroupNonUniformBitwiseAndOp, BitwiseAnd, -1);
  KILN_SUBGROUP(GroupNonUniformBitwiseOrOp, BitwiseOr, -1);
  KILN_SUBGROUP(GroupNonUniformBitwiseXorOp, BitwiseXor, -1);
  KILN_SUBGROUP(GroupNonUniformLogicalAndOp, LogicalAnd, -1);
  KILN_SUBGROUP(GroupNonUniformLogicalOrOp, LogicalOr, -1);
  KILN_SUBGROUP(GroupNonUniformLogicalXorOp, LogicalXor, -1);
  KILN_SUBGROUP(GroupNonUniformBroadcastOp, Broadcast, 1);
  KILN_SUBGROUP(GroupNonUniformShuffleOp, Shuffle, 1);
  KILN_SUBGROUP(GroupNonUniformShuffleXorOp, ShuffleXor, 1);
  KILN_SUBGROUP(GroupNonUniformShuffleUpOp, ShuffleUp, 1);
  KILN_SUBGROUP(GroupNonUniformShuffleDownOp, ShuffleDown, 1);
  KILN_SUBGROUP(GroupNonUniformElectOp, Elect, -1);
  KILN_SUBGROUP(GroupNonUniformAllOp, All, -1);
  KILN_SUBGROUP(GroupNonUniformAnyOp, Any, -1);
  KILN_SUBGROUP(GroupNonUniformAllEqualOp, AllEqual, -1);
  KILN_SUBGROUP(GroupNonUniformBallotOp, Ballot, -1);
#undef KILN_SUBGROUP
}
