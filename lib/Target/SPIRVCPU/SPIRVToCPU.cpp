//===- SPIRVToCPU.cpp - Validated SPIR-V as host functions ----------------===//
//
// The spirv-cpu target's compiler half: each GPU module's spirv.module, the
// same one that `--kiln-serialize-spirv` validates and puts in the container,
// is converted to LLVM-dialect functions of the host module that the
// spirv-cpu runtime calls once per invocation (include/kiln/Runtime/
// SPIRVCPUABI.h is the contract; docs/spirv-cpu.md the description).
//
// Upstream's SPIR-V to LLVM patterns do the arithmetic, control flow,
// functions and memory accesses. What they leave out, or model as a single
// invocation, is done here:
//
//  - every function gets the invocation (`Invocation *`) as a first argument
//    and passes it on;
//  - global variables are not LLVM globals: a built-in is a field of the
//    invocation, a storage or uniform buffer the binding the runtime passes,
//    the push constants the runtime's block, a Workgroup variable a slice of
//    the workgroup's memory and a Private one a slice of the invocation's;
//  - barriers and subgroup operations call the runtime, which runs the
//    invocations of a workgroup as fibers; atomics are LLVM atomics, since
//    workgroups run on several threads;
//  - in checked mode every access to a buffer or to workgroup memory is
//    checked by the runtime first;
//  - each kernel gets a KernelDesc and is registered, under the hash of the
//    module's SPIR-V words, by a constructor of the host program.
//
//===----------------------------------------------------------------------===//

#include "ExtendedOps.h"
#include "kiln/Conversion/Unconvertible.h"
#include "kiln/Runtime/SPIRVCPUABI.h"
#include "kiln/Target/SPIRV/Container.h"
#include "kiln/Target/SPIRV/Serialization.h"
#include "kiln/Target/SPIRVCPU/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SPIRVToLLVM/SPIRVToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSPIRVTOCPU
#include "kiln/Target/SPIRVCPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;
namespace abi = kiln::spirvcpu;

namespace {

/// Where a SPIR-V global variable lives on the CPU.
enum class Place { BuiltIn, Resource, PushConstants, Workgroup, Private };

struct GlobalPlace {
  Place place;
  /// Resource: its index in KernelDesc::resources. Workgroup: its index in
  /// KernelDesc::workgroupVars.
  uint32_t index = 0;
  /// BuiltIn: offset in Invocation. Workgroup, Private: offset in the block.
  uint32_t offset = 0;
};

struct Resource {
  abi::ResourceKind kind;
  uint32_t set, binding;
  std::string symbol;
  std::string description;
};

struct WorkgroupVar {
  uint32_t offset, bytes;
  std::string description;
};

/// What the conversion of one spirv.module learns and needs.
struct ModuleState {
  llvm::StringMap<GlobalPlace> globals;
  SmallVector<Resource> resources;
  SmallVector<WorkgroupVar> workgroupVars;
  uint32_t workgroupBytes = 0;
  uint32_t privateBytes = 0;
  SmallVector<std::string> sites;
  llvm::StringMap<uint32_t> siteIndex;
  bool usesBarrier = false;
  bool usesSubgroupOps = false;
  bool checked = false;
  /// The module has dynamic workgroup memory: the last workgroup variable.
  bool dynamicWorkgroup = false;
  /// gpu.printf formats, by debug printf stub
  /// (kiln/Target/SPIRV/Serialization.h).
  SmallVector<std::string> printfFormats;
  /// Prefix of the symbols this module adds to the host module.
  std::string prefix;
  /// Per kernel: KernelDesc::stackBytes.
  llvm::StringMap<uint32_t> stackBytes;

  uint32_t site(Location loc) {
    std::string text;
    if (auto file = dyn_cast<FileLineColLoc>(loc)) {
      text = llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                           file.getLine(), file.getColumn())
                 .str();
    } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
      for (Location l : fused.getLocations())
        if (isa<FileLineColLoc>(l))
          return site(l);
    } else if (auto named = dyn_cast<NameLoc>(loc)) {
      return site(named.getChildLoc());
    } else if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
      return site(callSite.getCallee());
    }
    if (text.empty()) {
      llvm::raw_string_ostream os(text);
      loc.print(os);
    }
    auto [it, inserted] = siteIndex.try_emplace(text, sites.size());
    if (inserted)
      sites.push_back(text);
    return it->second;
  }
};

/// The offset in Invocation of a built-in, or -1 when the target has none.
int64_t builtInOffset(StringRef name) {
  std::optional<spirv::BuiltIn> b = spirv::symbolizeBuiltIn(name);
  if (!b)
    return -1;
  switch (*b) {
  case spirv::BuiltIn::GlobalInvocationId:
    return offsetof(abi::Invocation, globalInvocationId);
  case spirv::BuiltIn::LocalInvocationId:
    return offsetof(abi::Invocation, localInvocationId);
  case spirv::BuiltIn::WorkgroupId:
    return offsetof(abi::Invocation, workgroupId);
  case spirv::BuiltIn::NumWorkgroups:
    return offsetof(abi::Invocation, numWorkgroups);
  case spirv::BuiltIn::WorkgroupSize:
    return offsetof(abi::Invocation, workgroupSize);
  case spirv::BuiltIn::LocalInvocationIndex:
    return offsetof(abi::Invocation, localInvocationIndex);
  case spirv::BuiltIn::SubgroupId:
    return offsetof(abi::Invocation, subgroupId);
  case spirv::BuiltIn::SubgroupSize:
    return offsetof(abi::Invocation, subgroupSize);
  case spirv::BuiltIn::NumSubgroups:
    return offsetof(abi::Invocation, numSubgroups);
  case spirv::BuiltIn::SubgroupLocalInvocationId:
    return offsetof(abi::Invocation, subgroupLocalInvocationId);
  default:
    return -1;
  }
}

constexpr StringLiteral kBarrierFn = "__kiln_spirv_cpu_barrier";
constexpr StringLiteral kSubgroupFn = "__kiln_spirv_cpu_subgroup";
constexpr StringLiteral kCheckFn = "__kiln_spirv_cpu_check";
constexpr StringLiteral kRegisterFn = "__kiln_spirv_cpu_register";
/// Marks the allocas that phase two moves to the entry block.
constexpr StringLiteral kHoistAttr = "kiln.hoist";

/// Declares `name` in `module` with `type` unless it exists.
LLVM::LLVMFuncOp declareFunction(OpBuilder &b, ModuleOp module, StringRef name,
                                 LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

Value i32Constant(OpBuilder &b, Location loc, uint64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

/// An alloca of one `type` that phase two hoists into the entry block.
Value hoistedAlloca(OpBuilder &b, Location loc, Type type) {
  Value one =
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
  auto alloca = LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), type, one, 16);
  alloca->setAttr(kHoistAttr, b.getUnitAttr());
  return alloca;
}

//===----------------------------------------------------------------------===//
// Patterns: what upstream's SPIR-V to LLVM conversion does not do
//===----------------------------------------------------------------------===//

/// Global variables become placeholders that phase two replaces; their
/// places were decided before the conversion.
struct GlobalVariablePattern
    : public OpConversionPattern<spirv::GlobalVariableOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::GlobalVariableOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::GlobalOp>(
        op, rewriter.getI8Type(), /*isConstant=*/false, LLVM::Linkage::External,
        op.getSymName(), Attribute());
    return success();
  }
};

struct AddressOfPattern : public OpConversionPattern<spirv::AddressOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::AddressOfOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(
        op, LLVM::LLVMPointerType::get(op.getContext()), op.getVariable());
    return success();
  }
};

/// Entry points and execution modes are in the KernelDesc and container.
template <typename Op> struct EraseOpPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

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

struct FmaPattern : public OpConversionPattern<spirv::GLFmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::GLFmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, adaptor.getX(), adaptor.getY(),
                                             adaptor.getZ());
    return success();
  }
};

/// The dot product of two float vectors: their product, summed in order
/// from lane 0 (what `vector.reduction <add>` lowers to).
struct DotPattern : public OpConversionPattern<spirv::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    Location loc = op.getLoc();
    Value product = LLVM::FMulOp::create(rewriter, loc, adaptor.getVector1(),
                                         adaptor.getVector2());
    Value zero = LLVM::ConstantOp::create(rewriter, loc, type,
                                          rewriter.getFloatAttr(type, 0.0));
    rewriter.replaceOpWithNewOp<LLVM::vector_reduce_fadd>(op, type, zero,
                                                          product);
    return success();
  }
};

struct SAbsPattern : public OpConversionPattern<spirv::GLSAbsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::GLSAbsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AbsOp>(op, adaptor.getOperand().getType(),
                                             adaptor.getOperand(),
                                             /*is_int_min_poison=*/false);
    return success();
  }
};

struct SNegatePattern : public OpConversionPattern<spirv::SNegateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::SNegateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = adaptor.getOperand().getType();
    Value zero = LLVM::ZeroOp::create(rewriter, op.getLoc(), type);
    rewriter.replaceOpWithNewOp<LLVM::SubOp>(op, zero, adaptor.getOperand());
    return success();
  }
};

/// spirv.IsNan: unordered with itself.
struct IsNanPattern : public OpConversionPattern<spirv::IsNanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::IsNanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FCmpOp>(op, LLVM::FCmpPredicate::uno,
                                              adaptor.getOperand(),
                                              adaptor.getOperand());
    return success();
  }
};

/// spirv.IsInf: |x| == infinity.
struct IsInfPattern : public OpConversionPattern<spirv::IsInfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::IsInfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getOperand();
    Type type = x.getType();
    Type element = getElementTypeOrSelf(type);
    auto inf = rewriter.getFloatAttr(
        element, APFloat::getInf(cast<FloatType>(element).getFloatSemantics()));
    Attribute infAttr = inf;
    if (auto vector = dyn_cast<VectorType>(type))
      infAttr = SplatElementsAttr::get(vector, inf);
    Value infinity = LLVM::ConstantOp::create(rewriter, op.getLoc(), type,
                                              cast<TypedAttr>(infAttr));
    Value abs = LLVM::FAbsOp::create(rewriter, op.getLoc(), x);
    rewriter.replaceOpWithNewOp<LLVM::FCmpOp>(op, LLVM::FCmpPredicate::oeq, abs,
                                              infinity);
    return success();
  }
};

/// SPIR-V structs with explicit offsets (buffers, push constants) that
/// match the natural layout of their members: an LLVM struct with the same
/// member indices. Upstream converts only structs without offsets.
static std::optional<Type> convertLaidOutStruct(spirv::StructType type,
                                                LLVMTypeConverter &converter) {
  if (!type.hasOffset())
    return std::nullopt;
  SmallVector<Type> members;
  uint64_t end = 0;
  DataLayout layout;
  for (unsigned i = 0; i < type.getNumElements(); ++i) {
    Type member = converter.convertType(type.getElementType(i));
    if (!member)
      return std::nullopt;
    uint64_t align = layout.getTypeABIAlignment(member);
    if (llvm::alignTo(end, align) != type.getMemberOffset(i))
      return std::nullopt;
    end = type.getMemberOffset(i) + layout.getTypeSize(member).getFixedValue();
    members.push_back(member);
  }
  return LLVM::LLVMStructType::getLiteral(type.getContext(), members);
}

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

/// A two-operand GLSL op as the LLVM intrinsic of the same meaning.
template <typename Op, typename LLVMOp>
struct BinaryIntrinsicPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVMOp>(op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// A vector from scalars and smaller vectors, in order.
struct CompositeConstructPattern
    : public OpConversionPattern<spirv::CompositeConstructOp> {
  CompositeConstructPattern(const TypeConverter &converter,
                            MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(spirv::CompositeConstructOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto vectorType = dyn_cast<VectorType>(op.getType());
    if (!vectorType)
      return failure();
    Location loc = op.getLoc();
    Value result = LLVM::PoisonOp::create(rewriter, loc, vectorType);
    int64_t position = 0;
    auto insert = [&](Value scalar) {
      Value index =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                   rewriter.getI32IntegerAttr(position++));
      result =
          LLVM::InsertElementOp::create(rewriter, loc, result, scalar, index);
    };
    for (Value part : adaptor.getConstituents()) {
      auto partType = dyn_cast<VectorType>(part.getType());
      if (!partType) {
        insert(part);
        continue;
      }
      for (int64_t i = 0; i < partType.getNumElements(); ++i) {
        Value index =
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                     rewriter.getI32IntegerAttr(i));
        insert(LLVM::ExtractElementOp::create(rewriter, loc, part, index));
      }
    }
    rewriter.replaceOp(op, result);
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

void populateSubgroupPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns, ModuleState &state) {
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class SPIRVToCPUPass : public kiln::impl::KilnSPIRVToCPUBase<SPIRVToCPUPass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult convertModule(gpu::GPUModuleOp gpuModule);
  LogicalResult placeGlobals(spirv::ModuleOp module, gpu::GPUModuleOp gpuModule,
                             ModuleState &state);
  LogicalResult checkSupported(spirv::ModuleOp module);
  /// Records each kernel's stack frame in `state`; a frame above
  /// abi::kMaxStackBytes is an error at its largest variable.
  LogicalResult measureStacks(ModuleOp converted, ArrayRef<std::string> kernels,
                              ModuleState &state);
  LogicalResult finishFunctions(ModuleOp converted, ModuleState &state);
  void emitRegistration(gpu::GPUModuleOp gpuModule, ModuleOp converted,
                        ModuleState &state, uint64_t hash,
                        ArrayRef<std::string> kernels,
                        const llvm::StringMap<llvm::StringSet<>> &used,
                        const llvm::StringMap<std::string> &renamed);
};

} // namespace

/// Replaces each `spirv.mlir.loop` and `spirv.mlir.selection` that yields
/// results (`--kiln-tidy-spirv` gives loops results instead of Function
/// variables) by its blocks, inlined into the enclosing region: upstream's
/// SPIR-V to LLVM patterns handle only constructs without results. The
/// construct's entry branches to its header as before; its merge block's
/// `spirv.mlir.merge` becomes a branch carrying the results to the block
/// after the construct.
static void inlineConstructsWithResults(Operation *root) {
  SmallVector<Operation *> constructs;
  root->walk([&](Operation *op) {
    if (isa<spirv::LoopOp, spirv::SelectionOp>(op) && op->getNumResults())
      constructs.push_back(op);
  });
  for (Operation *op : constructs) {
    Block *before = op->getBlock();
    Block *after = before->splitBlock(op->getNextNode());
    for (OpResult result : op->getResults())
      result.replaceAllUsesWith(
          after->addArgument(result.getType(), op->getLoc()));
    Region &body = op->getRegion(0);
    Block *entry = &body.front();
    for (Block &block : body)
      if (auto merge = dyn_cast<spirv::MergeOp>(block.getTerminator())) {
        OpBuilder b(merge);
        spirv::BranchOp::create(b, merge.getLoc(), after, merge.getOperands());
        merge.erase();
      }
    after->getParent()->getBlocks().splice(after->getIterator(),
                                           body.getBlocks());
    OpBuilder b(op);
    spirv::BranchOp::create(b, op->getLoc(), entry);
    op->erase();
  }
}

/// "argument N (TYPE)" for the kernel argument at (set, binding), from the
/// gpu.funcs of the module; empty when none has it.
static std::string describeBinding(gpu::GPUModuleOp gpuModule, uint32_t set,
                                   uint32_t binding) {
  for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto abiAttr = fn.getArgAttrOfType<spirv::InterfaceVarABIAttr>(
          i, spirv::getInterfaceVarABIAttrName());
      if (!abiAttr || abiAttr.getDescriptorSet() != set ||
          abiAttr.getBinding() != binding)
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "argument " << i << " (" << fn.getArgument(i).getType() << ")";
      return text;
    }
  }
  return "";
}

LogicalResult SPIRVToCPUPass::checkSupported(spirv::ModuleOp module) {
  WalkResult result = module.walk([&](Operation *op) {
    if (auto barrier = dyn_cast<spirv::ControlBarrierOp>(op)) {
      spirv::Scope scope = barrier.getExecutionScope();
      if (scope != spirv::Scope::Workgroup && scope != spirv::Scope::Subgroup) {
        op->emitError("the spirv-cpu target runs control barriers of "
                      "Workgroup or Subgroup scope only, not ")
            << spirv::stringifyScope(scope);
        return WalkResult::interrupt();
      }
    }
    if (op->getName().getStringRef().starts_with("spirv.GroupNonUniform")) {
      auto scope = op->getAttrOfType<spirv::ScopeAttr>("execution_scope");
      if (scope && scope.getValue() != spirv::Scope::Subgroup) {
        op->emitError("the spirv-cpu target runs group operations of "
                      "Subgroup scope only, not ")
            << spirv::stringifyScope(scope.getValue());
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The array (alone or wrapped in a struct) whose length
/// container::kDynamicWorkgroupLength marks dynamic workgroup memory.
static bool isDynamicWorkgroupArray(Type type) {
  if (auto wrapper = dyn_cast<spirv::StructType>(type);
      wrapper && wrapper.getNumElements() == 1)
    type = wrapper.getElementType(0);
  auto array = dyn_cast<spirv::ArrayType>(type);
  return array &&
         array.getNumElements() == kiln::container::kDynamicWorkgroupLength;
}

LogicalResult SPIRVToCPUPass::placeGlobals(spirv::ModuleOp module,
                                           gpu::GPUModuleOp gpuModule,
                                           ModuleState &state) {
  spirv::GlobalVariableOp dynamicGlobal;
  LLVMTypeConverter converter(&getContext());
  populateSPIRVToLLVMTypeConversion(converter);
  DataLayout layout(getOperation());
  auto placeIn = [&](uint32_t &bytes, Type type) -> FailureOr<uint32_t> {
    Type llvmType = converter.convertType(type);
    if (!llvmType)
      return failure();
    uint64_t size = layout.getTypeSize(llvmType);
    uint64_t align =
        std::max<uint64_t>(layout.getTypeABIAlignment(llvmType), 1);
    uint64_t offset = llvm::alignTo(bytes, align);
    if (offset + size > UINT32_MAX)
      return failure();
    bytes = offset + size;
    return uint32_t(offset);
  };
  for (auto global : module.getOps<spirv::GlobalVariableOp>()) {
    auto ptrType = cast<spirv::PointerType>(global.getType());
    spirv::StorageClass storage = ptrType.getStorageClass();
    GlobalPlace place{Place::Private};
    StringRef name = global.getSymName();
    switch (storage) {
    case spirv::StorageClass::Input: {
      auto builtIn = global->getAttrOfType<StringAttr>("built_in");
      int64_t offset = builtIn ? builtInOffset(builtIn.getValue()) : -1;
      if (offset < 0)
        return global.emitError("the spirv-cpu target has no ")
               << (builtIn ? ("built-in " + builtIn.getValue()).str()
                           : std::string("Input variable without built-in"));
      place = {Place::BuiltIn, 0, uint32_t(offset)};
      break;
    }
    case spirv::StorageClass::StorageBuffer:
    case spirv::StorageClass::Uniform: {
      std::optional<uint32_t> set = global.getDescriptorSet();
      std::optional<uint32_t> binding = global.getBinding();
      if (!set || !binding)
        return global.emitError("buffer variable without descriptor set and "
                                "binding");
      Resource resource;
      resource.kind = storage == spirv::StorageClass::Uniform
                          ? abi::ResourceKind::UniformBuffer
                          : abi::ResourceKind::StorageBuffer;
      resource.set = *set;
      resource.binding = *binding;
      resource.symbol = name.str();
      resource.description = describeBinding(gpuModule, *set, *binding);
      if (resource.description.empty())
        resource.description =
            resource.kind == abi::ResourceKind::UniformBuffer
                ? llvm::formatv("the push-constant uniform buffer ({0}, {1})",
                                *set, *binding)
                      .str()
                : llvm::formatv("binding ({0}, {1})", *set, *binding).str();
      place = {Place::Resource, uint32_t(state.resources.size())};
      state.resources.push_back(std::move(resource));
      break;
    }
    case spirv::StorageClass::PushConstant:
      place = {Place::PushConstants};
      break;
    case spirv::StorageClass::Workgroup: {
      if (isDynamicWorkgroupArray(ptrType.getPointeeType())) {
        if (dynamicGlobal)
          return global.emitError("a second dynamic workgroup array");
        dynamicGlobal = global;
        continue;
      }
      FailureOr<uint32_t> offset =
          placeIn(state.workgroupBytes, ptrType.getPointeeType());
      if (failed(offset))
        return global.emitError("cannot lay out workgroup variable of type ")
               << ptrType.getPointeeType();
      std::string description;
      llvm::raw_string_ostream os(description);
      os << "workgroup variable " << state.workgroupVars.size() << " ("
         << ptrType.getPointeeType() << ")";
      place = {Place::Workgroup, uint32_t(state.workgroupVars.size()), *offset};
      state.workgroupVars.push_back(
          {*offset, state.workgroupBytes - *offset, description});
      break;
    }
    case spirv::StorageClass::Private: {
      if (global.getInitializer())
        return global.emitError("the spirv-cpu target has no Private "
                                "variables with an initializer");
      FailureOr<uint32_t> offset =
          placeIn(state.privateBytes, ptrType.getPointeeType());
      if (failed(offset))
        return global.emitError("cannot lay out private variable of type ")
               << ptrType.getPointeeType();
      place = {Place::Private, 0, *offset};
      break;
    }
    default:
      return global.emitError("the spirv-cpu target has no global variables "
                              "of storage class ")
             << spirv::stringifyStorageClass(storage);
    }
    state.globals[name] = place;
  }
  // Dynamic workgroup memory after the rest, 16-byte aligned, sized by the
  // launch.
  if (dynamicGlobal) {
    state.workgroupBytes = llvm::alignTo(state.workgroupBytes, 16);
    std::string description;
    llvm::raw_string_ostream os(description);
    os << "dynamic workgroup memory (workgroup variable "
       << state.workgroupVars.size() << ")";
    state.globals[dynamicGlobal.getSymName()] = {
        Place::Workgroup, uint32_t(state.workgroupVars.size()),
        state.workgroupBytes};
    state.workgroupVars.push_back({state.workgroupBytes, 0, description});
    state.dynamicWorkgroup = true;
  }
  return success();
}

static std::string stringGlobal(OpBuilder &b, ModuleOp module, Location loc,
                                StringRef prefix, StringRef text);

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

LogicalResult SPIRVToCPUPass::finishFunctions(ModuleOp converted,
                                              ModuleState &state) {
  MLIRContext *ctx = &getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b(ctx);
  SymbolTable symbols(converted);
  DataLayout layout(getOperation());

  // Every function of the module, and the runtime's, takes the invocation
  // first; calls pass it on.
  SmallVector<LLVM::LLVMFuncOp> functions;
  converted.walk([&](LLVM::LLVMFuncOp fn) { functions.push_back(fn); });
  for (LLVM::LLVMFuncOp fn : functions) {
    LLVM::LLVMFunctionType type = fn.getFunctionType();
    SmallVector<Type> inputs{ptrType};
    llvm::append_range(inputs, type.getParams());
    fn.setFunctionType(LLVM::LLVMFunctionType::get(type.getReturnType(), inputs,
                                                   type.isVarArg()));
    if (!fn.isExternal())
      fn.getBody().front().insertArgument(0u, ptrType, fn.getLoc());
  }
  for (LLVM::LLVMFuncOp fn : functions) {
    if (fn.isExternal())
      continue;
    Value invocation = fn.getArgument(0);
    SmallVector<LLVM::CallOp> calls;
    fn.walk([&](LLVM::CallOp call) { calls.push_back(call); });
    for (LLVM::CallOp call : calls) {
      if (!call.getCallee() || !symbols.lookup(*call.getCallee()))
        return call.emitError("indirect or unknown call in a kernel");
      SmallVector<Value> operands{invocation};
      llvm::append_range(operands, call.getCalleeOperands());
      call.getCalleeOperandsMutable().assign(operands);
    }

    // gpu.printf: C's printf, which takes the same formats, with floats
    // promoted to double as C promotes them.
    for (LLVM::CallOp call : calls) {
      StringRef callee = *call.getCallee();
      unsigned index;
      if (!callee.consume_front(kiln::kDebugPrintfStubPrefix) ||
          callee.getAsInteger(10, index) || index >= state.printfFormats.size())
        continue;
      b.setInsertionPoint(call);
      Location loc = call.getLoc();
      auto printfType = LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType},
                                                    /*isVarArg=*/true);
      LLVM::LLVMFuncOp printfFn =
          declareFunction(b, converted, "printf", printfType);
      std::string format = stringGlobal(
          b, converted, loc, state.prefix + "_printf_" + Twine(index).str(),
          state.printfFormats[index]);
      SmallVector<Value> args{
          LLVM::AddressOfOp::create(b, loc, ptrType, format)};
      for (Value arg : call.getArgOperands().drop_front()) {
        if (isa<FloatType>(arg.getType()) && !arg.getType().isF64())
          arg = LLVM::FPExtOp::create(b, loc, b.getF64Type(), arg);
        args.push_back(arg);
      }
      LLVM::CallOp::create(b, loc, printfFn, args);
      call.erase();
    }

    // Allocas of the patterns go to the entry block, out of any loop.
    Block &entry = fn.getBody().front();
    fn.walk([&](LLVM::AllocaOp alloca) {
      if (!alloca->hasAttr(kHoistAttr))
        return;
      alloca->removeAttr(kHoistAttr);
      Operation *count = alloca.getArraySize().getDefiningOp();
      count->moveBefore(&entry, entry.begin());
      alloca->moveAfter(count);
    });

    // Global addresses, from the invocation.
    llvm::DenseMap<Value, std::pair<abi::AccessSpace, uint32_t>> checkedRoots;
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

    if (!state.checked)
      continue;
    // Checked mode: every access to a buffer or to workgroup memory asks the
    // runtime first.
    auto checkFnType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(ctx),
        {ptrType, b.getI32Type(), b.getI32Type(), b.getI32Type(),
         b.getI32Type(), ptrType, b.getI64Type()});
    LLVM::LLVMFuncOp checkFn =
        declareFunction(b, converted, kCheckFn, checkFnType);
    auto check = [&](Operation *op, Value address, Type type,
                     abi::AccessKind access) {
      Value root = addressRoot(address, checkedRoots);
      if (!root)
        return;
      auto it = checkedRoots.find(root);
      if (it == checkedRoots.end())
        return;
      b.setInsertionPoint(op);
      Location loc = op->getLoc();
      Value bytes = LLVM::ConstantOp::create(
          b, loc, b.getI64Type(),
          b.getI64IntegerAttr(layout.getTypeSize(type).getFixedValue()));
      LLVM::CallOp::create(
          b, loc, checkFn,
          ValueRange{invocation, i32Constant(b, loc, state.site(loc)),
                     i32Constant(b, loc, uint32_t(access)),
                     i32Constant(b, loc, uint32_t(it->second.first)),
                     i32Constant(b, loc, it->second.second), address, bytes});
    };
    fn.walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op))
        check(op, load.getAddr(), load.getType(), abi::AccessKind::Read);
      else if (auto store = dyn_cast<LLVM::StoreOp>(op))
        check(op, store.getAddr(), store.getValue().getType(),
              abi::AccessKind::Write);
      else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
        check(op, rmw.getPtr(), rmw.getVal().getType(),
              abi::AccessKind::Atomic);
      else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
        check(op, cmpxchg.getPtr(), cmpxchg.getVal().getType(),
              abi::AccessKind::Atomic);
    });
  }

  // The debug printf stubs, now without callers, and the placeholders of
  // the globals go.
  for (auto fn :
       llvm::make_early_inc_range(converted.getOps<LLVM::LLVMFuncOp>()))
    if (fn.getSymName().starts_with(kiln::kDebugPrintfStubPrefix))
      fn.erase();
  for (auto global :
       llvm::make_early_inc_range(converted.getOps<LLVM::GlobalOp>()))
    if (state.globals.count(global.getSymName()))
      global.erase();
  return success();
}

/// A constant NUL-terminated string global; returns its name.
static std::string stringGlobal(OpBuilder &b, ModuleOp module, Location loc,
                                StringRef prefix, StringRef text) {
  SymbolTable symbols(module);
  std::string name = prefix.str();
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = (prefix + "_" + Twine(i)).str();
  std::string value = text.str();
  value.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                         LLVM::Linkage::Private, name, b.getStringAttr(value),
                         /*alignment=*/1);
  return name;
}

void SPIRVToCPUPass::emitRegistration(
    gpu::GPUModuleOp gpuModule, ModuleOp host, ModuleState &state,
    uint64_t hash, ArrayRef<std::string> kernels,
    const llvm::StringMap<llvm::StringSet<>> &used,
    const llvm::StringMap<std::string> &renamed) {
  MLIRContext *ctx = &getContext();
  OpBuilder b(ctx);
  Location loc = gpuModule.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type();
  std::string prefix = ("__kiln_cpu_" + gpuModule.getName()).str();

  // Each table is a private constant whose initializer starts from zero
  // and inserts its fields: i32 values and addresses of other globals.
  struct Fields {
    OpBuilder &b;
    Location loc;
    Value value;
    void i32(ArrayRef<int64_t> position, uint32_t v) {
      value = LLVM::InsertValueOp::create(b, loc, value, i32Constant(b, loc, v),
                                          position);
    }
    void address(ArrayRef<int64_t> position, StringRef symbol) {
      value = LLVM::InsertValueOp::create(
          b, loc, value,
          LLVM::AddressOfOp::create(
              b, loc, LLVM::LLVMPointerType::get(b.getContext()), symbol),
          position);
    }
  };
  auto defineConstant = [&](StringRef name, Type type,
                            function_ref<void(Fields &)> fill) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(host.getBody());
    auto global =
        LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                               LLVM::Linkage::Private, name, Attribute());
    b.setInsertionPointToStart(b.createBlock(&global.getInitializerRegion()));
    Fields fields{b, loc, LLVM::ZeroOp::create(b, loc, type)};
    fill(fields);
    LLVM::ReturnOp::create(b, loc, fields.value);
  };
  // Arrays hold at least one (zero) element, so that empty tables are valid.
  auto arrayOf = [](Type element, size_t count) {
    return LLVM::LLVMArrayType::get(element, std::max<size_t>(1, count));
  };

  // Per module: the sites table.
  SmallVector<std::string> siteNames;
  for (auto [i, text] : llvm::enumerate(state.sites))
    siteNames.push_back(
        stringGlobal(b, host, loc, prefix + "_site_" + Twine(i).str(), text));
  std::string sitesName = prefix + "_sites";
  defineConstant(sitesName, arrayOf(ptrType, siteNames.size()), [&](Fields &f) {
    for (auto [i, site] : llvm::enumerate(siteNames))
      f.address({int64_t(i)}, site);
  });

  // Workgroup variables, shared by the kernels of the module.
  SmallVector<std::string> varTexts;
  for (auto [i, var] : llvm::enumerate(state.workgroupVars))
    varTexts.push_back(stringGlobal(
        b, host, loc, prefix + "_wg_" + Twine(i).str(), var.description));
  std::string varsName = prefix + "_workgroup_vars";
  auto varType = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, ptrType});
  defineConstant(varsName, arrayOf(varType, state.workgroupVars.size()),
                 [&](Fields &f) {
                   for (auto [i, var] : llvm::enumerate(state.workgroupVars)) {
                     int64_t at = i;
                     f.i32({at, 0}, var.offset);
                     f.i32({at, 1}, var.bytes);
                     f.address({at, 2}, varTexts[i]);
                   }
                 });

  auto resourceType =
      LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32, ptrType});
  auto descType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i32, i32, i32, i32, i32, i32, i32, ptrType, ptrType, ptrType,
            ptrType});
  SmallVector<std::string> resourceTexts;
  for (auto [i, r] : llvm::enumerate(state.resources))
    resourceTexts.push_back(stringGlobal(
        b, host, loc, prefix + "_res_" + Twine(i).str(), r.description));

  SmallVector<std::pair<std::string, std::string>> registered;
  for (const std::string &kernel : kernels) {
    std::string kprefix = prefix + "_" + kernel;
    std::string nameGlobal =
        stringGlobal(b, host, loc, kprefix + "_name", kernel);
    const llvm::StringSet<> &kernelGlobals = used.lookup(kernel);
    std::string resourcesName = kprefix + "_resources";
    defineConstant(resourcesName, arrayOf(resourceType, state.resources.size()),
                   [&](Fields &f) {
                     for (auto [i, r] : llvm::enumerate(state.resources)) {
                       int64_t at = i;
                       f.i32({at, 0}, uint32_t(r.kind));
                       f.i32({at, 1}, r.set);
                       f.i32({at, 2}, r.binding);
                       f.i32({at, 3}, kernelGlobals.contains(r.symbol) ? 1 : 0);
                       f.address({at, 4}, resourceTexts[i]);
                     }
                   });

    std::string descName = kprefix + "_desc";
    uint32_t flags =
        (state.usesBarrier ? uint32_t(abi::kUsesBarrier) : 0u) |
        (state.usesSubgroupOps ? uint32_t(abi::kUsesSubgroupOps) : 0u) |
        (state.checked ? uint32_t(abi::kChecked) : 0u) |
        (state.dynamicWorkgroup ? uint32_t(abi::kDynamicWorkgroup) : 0u);
    defineConstant(descName, descType, [&](Fields &f) {
      uint32_t counts[] = {abi::kABIVersion,
                           flags,
                           state.workgroupBytes,
                           state.privateBytes,
                           uint32_t(state.resources.size()),
                           uint32_t(state.workgroupVars.size()),
                           uint32_t(state.sites.size()),
                           state.stackBytes.lookup(kernel)};
      for (auto [i, v] : llvm::enumerate(counts))
        f.i32({int64_t(i)}, v);
      StringRef pointers[] = {nameGlobal, resourcesName, varsName, sitesName};
      for (auto [i, target] : llvm::enumerate(pointers))
        f.address({int64_t(8 + i)}, target);
    });
    registered.push_back({descName, renamed.lookup(kernel)});
  }

  // The constructor that registers the module's kernels.
  auto registerType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {b.getI64Type(), ptrType, ptrType});
  LLVM::LLVMFuncOp registerFn =
      declareFunction(b, host, kRegisterFn, registerType);
  std::string ctorName = prefix + "_register";
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(host.getBody());
  auto ctor = LLVM::LLVMFuncOp::create(
      b, loc, ctorName,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  b.setInsertionPointToStart(ctor.addEntryBlock(b));
  Value key = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                       b.getI64IntegerAttr(int64_t(hash)));
  for (auto &[desc, fn] : registered)
    LLVM::CallOp::create(
        b, loc, registerFn,
        ValueRange{key, LLVM::AddressOfOp::create(b, loc, ptrType, desc),
                   LLVM::AddressOfOp::create(b, loc, ptrType, fn)});
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  b.setInsertionPointToEnd(host.getBody());
  // Before the gpu.binary's constructor (priority 123) loads the module.
  LLVM::GlobalCtorsOp::create(
      b, loc, b.getArrayAttr({FlatSymbolRefAttr::get(ctx, ctorName)}),
      b.getArrayAttr({b.getI32IntegerAttr(100)}),
      b.getArrayAttr({LLVM::ZeroAttr::get(ctx)}));
}

namespace {
/// A function's stack frame as the compiler sees it: its allocas (Function
/// storage class variables, memref.alloca arrays) and those of the deepest
/// chain of functions it calls.
struct Frame {
  uint64_t bytes = 0;
  /// The largest alloca on that chain, where the error points.
  uint64_t largest = 0;
  std::optional<Location> largestAt;
};

Frame frameOf(LLVM::LLVMFuncOp fn, SymbolTable &symbols,
              const DataLayout &layout,
              llvm::DenseMap<Operation *, Frame> &memo) {
  if (auto it = memo.find(fn); it != memo.end())
    return it->second;
  memo[fn] = Frame(); // SPIR-V has no recursion; a cycle adds nothing.
  Frame frame, deepest;
  auto add = [](uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
  };
  fn.walk([&](Operation *op) {
    if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      APInt count(64, 1);
      (void)matchPattern(alloca.getArraySize(), m_ConstantInt(&count));
      uint64_t element = layout.getTypeSize(alloca.getElemType());
      uint64_t n = count.getZExtValue();
      uint64_t bytes = n && element > UINT64_MAX / n ? UINT64_MAX : element * n;
      frame.bytes = add(frame.bytes, bytes);
      if (bytes > frame.largest) {
        frame.largest = bytes;
        frame.largestAt = alloca.getLoc();
      }
    } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      auto callee = call.getCallee();
      auto target = callee ? symbols.lookup<LLVM::LLVMFuncOp>(*callee)
                           : LLVM::LLVMFuncOp();
      if (target && !target.isExternal()) {
        Frame inner = frameOf(target, symbols, layout, memo);
        if (inner.bytes > deepest.bytes)
          deepest = inner;
      }
    }
  });
  frame.bytes = add(frame.bytes, deepest.bytes);
  if (deepest.largest > frame.largest) {
    frame.largest = deepest.largest;
    frame.largestAt = deepest.largestAt;
  }
  memo[fn] = frame;
  return frame;
}
} // namespace

LogicalResult SPIRVToCPUPass::measureStacks(ModuleOp converted,
                                            ArrayRef<std::string> kernels,
                                            ModuleState &state) {
  SymbolTable symbols(converted);
  DataLayout layout(converted);
  llvm::DenseMap<Operation *, Frame> memo;
  for (const std::string &kernel : kernels) {
    auto fn = symbols.lookup<LLVM::LLVMFuncOp>(kernel);
    if (!fn)
      continue;
    Frame frame = frameOf(fn, symbols, layout, memo);
    if (frame.bytes > abi::kMaxStackBytes)
      return emitError(frame.largestAt.value_or(fn.getLoc()), "kernel '")
             << kernel << "' needs " << frame.bytes
             << " bytes of private memory per invocation (its variables and "
                "memref.alloca arrays, with those of the functions it "
                "calls); the spirv-cpu target allows at most "
             << abi::kMaxStackBytes
             << ": put larger arrays in workgroup memory or a buffer";
    state.stackBytes[kernel] = uint32_t(frame.bytes);
  }
  return success();
}

LogicalResult SPIRVToCPUPass::convertModule(gpu::GPUModuleOp gpuModule) {
  FailureOr<spirv::ModuleOp> nested = kiln::getNestedSPIRVModule(gpuModule);
  if (failed(nested))
    return failure();
  spirv::ModuleOp original = *nested;
  MLIRContext *ctx = &getContext();

  // The key: the words the container will hold.
  SmallVector<uint32_t> words;
  if (failed(kiln::serializeSPIRVWords(original, words)))
    return failure();
  uint64_t hash = abi::hashSPIRV(words.data(), words.size());

  if (failed(checkSupported(original)))
    return failure();
  ModuleState state;
  state.checked = checked;
  state.prefix = ("__kiln_cpu_" + gpuModule.getName()).str();
  if (auto formats =
          original->getAttrOfType<ArrayAttr>(kiln::kDebugPrintfFormatsAttr))
    for (Attribute f : formats)
      state.printfFormats.push_back(cast<StringAttr>(f).str());
  if (failed(placeGlobals(original, gpuModule, state)))
    return failure();

  SmallVector<std::string> kernels;
  for (auto entry : original.getOps<spirv::EntryPointOp>())
    kernels.push_back(entry.getFn().str());

  // The globals each kernel reaches, through the functions it calls.
  llvm::StringMap<llvm::StringSet<>> globalsOfFunction;
  llvm::StringMap<llvm::StringSet<>> calleesOfFunction;
  for (auto fn : original.getOps<spirv::FuncOp>()) {
    fn.walk([&](spirv::AddressOfOp a) {
      globalsOfFunction[fn.getSymName()].insert(a.getVariable());
    });
    fn.walk([&](spirv::FunctionCallOp c) {
      calleesOfFunction[fn.getSymName()].insert(c.getCallee());
    });
  }
  llvm::StringMap<llvm::StringSet<>> used;
  for (const std::string &kernel : kernels) {
    llvm::StringSet<> seen;
    SmallVector<std::string> work{kernel};
    llvm::StringSet<> &globals = used[kernel];
    while (!work.empty()) {
      std::string fn = work.pop_back_val();
      if (!seen.insert(fn).second)
        continue;
      for (auto &g : globalsOfFunction[fn])
        globals.insert(g.getKey());
      for (auto &c : calleesOfFunction[fn])
        work.push_back(c.getKey().str());
    }
  }

  // Convert a copy: the original goes on to serialization.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(gpuModule.getLoc());
  {
    OpBuilder b(ctx);
    b.setInsertionPointToStart(scratch->getBody());
    b.clone(*original);
  }
  scratch->walk(
      [](spirv::ModuleOp m) { m->removeAttr(kiln::kDebugPrintfFormatsAttr); });
  inlineConstructsWithResults(scratch.get());

  LowerToLLVMOptions options(ctx, DataLayout(getOperation()));
  LLVMTypeConverter converter(ctx, options);
  populateSPIRVToLLVMTypeConversion(converter);
  // An array of `count` elements whose stride is their size (or not laid
  // out).
  auto convertArray = [&](Type elementType, uint64_t stride,
                          uint64_t count) -> std::optional<Type> {
    Type element = converter.convertType(elementType);
    if (!element)
      return std::nullopt;
    if (stride && stride != DataLayout().getTypeSize(element))
      return std::nullopt;
    return LLVM::LLVMArrayType::get(element, count);
  };
  // Runtime arrays (buffers of dynamic size) as zero-length arrays, which
  // upstream leaves out.
  converter.addConversion([&](spirv::RuntimeArrayType type) {
    return convertArray(type.getElementType(), type.getArrayStride(), 0);
  });
  // Laid-out arrays (storage buffers read as arrays of vectors) whose
  // stride is their element's size, which upstream refuses.
  converter.addConversion([&](spirv::ArrayType type) {
    return convertArray(type.getElementType(), type.getArrayStride(),
                        type.getNumElements());
  });
  converter.addConversion([&](spirv::StructType type) {
    return convertLaidOutStruct(type, converter);
  });
  RewritePatternSet patterns(ctx);
  populateSPIRVToLLVMConversionPatterns(converter, patterns);
  populateSPIRVToLLVMFunctionConversionPatterns(converter, patterns);
  populateSPIRVToLLVMModuleConversionPatterns(converter, patterns);
  patterns
      .add<GlobalVariablePattern, AddressOfPattern,
           EraseOpPattern<spirv::EntryPointOp>,
           EraseOpPattern<spirv::ExecutionModeOp>, MemoryBarrierPattern,
           FmaPattern, DotPattern, SAbsPattern, SNegatePattern, IsNanPattern,
           IsInfPattern, ConvertUToPtrPattern, ConvertPtrToUPattern,
           BinaryIntrinsicPattern<spirv::GLUMinOp, LLVM::UMinOp>,
           BinaryIntrinsicPattern<spirv::GLUMaxOp, LLVM::UMaxOp>,
           BinaryIntrinsicPattern<spirv::GLSMinOp, LLVM::SMinOp>,
           BinaryIntrinsicPattern<spirv::GLSMaxOp, LLVM::SMaxOp>>(
          converter, ctx, /*benefit=*/10);
  patterns.add<ControlBarrierPattern>(ctx, state);
  patterns.add<CompositeConstructPattern>(converter, ctx);
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
  populateSubgroupPatterns(converter, patterns, state);
  kiln::populateSPIRVCPUExtendedOpPatterns(converter, patterns);

  ConversionTarget target(*ctx);
  target.addIllegalDialect<spirv::SPIRVDialect>();
  target.addLegalDialect<LLVM::LLVMDialect>();
  target.addLegalOp<ModuleOp>();
  FrozenRewritePatternSet frozen(std::move(patterns));
  // Convert. The conversion's own messages are held back: when it fails
  // (and is rolled back), its analysis says which ops have no lowering, and
  // the user hears about each at the op.
  LogicalResult lowered = failure();
  SmallVector<Diagnostic> conversionDiagnostics;
  {
    ScopedDiagnosticHandler holdBack(ctx, [&](Diagnostic &diagnostic) {
      conversionDiagnostics.push_back(std::move(diagnostic));
      return success();
    });
    lowered = applyPartialConversion(*scratch, target, frozen);
  }
  if (failed(lowered)) {
    // A partial conversion: only the ops the target calls illegal must be
    // converted.
    FailureOr<SmallVector<Operation *>> unconvertible =
        kiln::findUnconvertibleOps(
            scratch->getOperation(), target, frozen,
            [&](Operation *op) { return target.isIllegal(op); });
    if (failed(unconvertible))
      return failure();
    for (Operation *op : *unconvertible)
      op->emitError("the spirv-cpu target cannot run '")
          << op->getName() << "': it has no lowering to the LLVM dialect";
    if (!unconvertible->empty())
      return failure();
    for (Diagnostic &diagnostic : conversionDiagnostics)
      ctx->getDiagEngine().emit(std::move(diagnostic));
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName()
           << "' failed to lower to the LLVM dialect for the CPU";
  }
  for (Diagnostic &diagnostic : conversionDiagnostics)
    ctx->getDiagEngine().emit(std::move(diagnostic));

  // The converted spirv.module is now a builtin.module inside the scratch
  // module.
  auto converted = cast<ModuleOp>(scratch->getBody()->front());
  if (failed(finishFunctions(converted, state)))
    return failure();
  if (failed(measureStacks(converted, kernels, state)))
    return failure();

  // Line tables from the MLIR locations, so that a debugger can stop at a
  // kernel's line.
  {
    PassManager pm(ctx);
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
    if (failed(pm.run(converted)))
      return failure();
  }

  // Into the host module, under names of their own.
  ModuleOp host = getOperation();
  llvm::StringMap<std::string> renamed;
  SymbolTable hostSymbols(host);
  std::string prefix = ("__kiln_cpu_" + gpuModule.getName() + "_").str();
  SymbolTable convertedSymbols(converted);
  for (auto fn :
       llvm::make_early_inc_range(converted.getOps<LLVM::LLVMFuncOp>())) {
    // Declarations (the runtime's functions, printf) keep their names.
    if (fn.isExternal())
      continue;
    StringRef name = fn.getSymName();
    std::string newName = prefix + name.str();
    renamed[name] = newName;
    if (failed(convertedSymbols.rename(fn, newName)))
      return fn.emitError("cannot rename");
    fn.setLinkage(LLVM::Linkage::Internal);
  }
  OpBuilder b(ctx);
  for (Operation &op :
       llvm::make_early_inc_range(converted.getBody()->getOperations())) {
    if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
        fn && fn.isExternal() && hostSymbols.lookup(fn.getSymName()))
      continue;
    op.moveBefore(host.getBody(), host.getBody()->end());
  }
  emitRegistration(gpuModule, host, state, hash, kernels, used, renamed);
  return success();
}

void SPIRVToCPUPass::runOnOperation() {
  if (failed(
          kiln::forEachSPIRVGPUModule(getOperation(), [&](gpu::GPUModuleOp m) {
            return convertModule(m);
          })))
    signalPassFailure();
}
