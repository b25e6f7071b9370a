//===- MPIToLLVM.cpp - mpi ops as calls of Kiln's MPI runtime -------------===//
//
// Every op of MLIR's mpi dialect becomes a call of its `__kiln_mpi_*` entry
// point (include/kiln/Contract/MPIABI.h), which the runtime implements for
// the MPI the module names. Upstream's MPIToLLVM patterns, which gpu-to-llvm
// and convert-to-llvm apply to whatever mpi ops they find, never see one:
// they call MPI directly with a handle layout and datatypes fixed at compile
// time, which cannot reach device memory, strided memrefs or counts past an
// `int`, and they miss seven ops.
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/MPIABI.h"
#include "kiln/Host/Passes.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln {
#define GEN_PASS_DEF_KILNMPITOLLVM
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using kiln::mpi::ElementKind;
using kiln::mpi::Implementation;
using kiln::mpi::Reduction;
using ReductionOp = mlir::mpi::MPI_ReductionOpEnum;

/// The key of the implementation in the module's `dlti.map`.
static constexpr llvm::StringLiteral kImplementationKey = "MPI:Implementation";

//===----------------------------------------------------------------------===//
// Element types and reductions
//===----------------------------------------------------------------------===//

/// The code of a memref element type the runtime takes, or none. `index` is
/// 64 bits on the host (the LLVM lowering's index width, checked by the
/// caller).
static std::optional<ElementKind> getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (isa<IndexType>(type))
    return ElementKind::I64;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (complex.getElementType().isF32())
      return ElementKind::ComplexF32;
    if (complex.getElementType().isF64())
      return ElementKind::ComplexF64;
    return std::nullopt;
  }
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  if (integer.getWidth() == 1)
    return integer.isSignless() ? std::optional(ElementKind::Bool)
                                : std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8:
    return isUnsigned ? ElementKind::U8 : ElementKind::I8;
  case 16:
    return isUnsigned ? ElementKind::U16 : ElementKind::I16;
  case 32:
    return isUnsigned ? ElementKind::U32 : ElementKind::I32;
  case 64:
    return isUnsigned ? ElementKind::U64 : ElementKind::I64;
  default:
    return std::nullopt;
  }
}

/// Why MPI cannot reduce elements of `kind` (MLIR type `type`) with `op`, or
/// none when it can (MPI 4.0, section 6.9.2: which datatype categories each
/// predefined operation takes).
static std::optional<std::string> reductionProblem(ElementKind kind, Type type,
                                                   ReductionOp op) {
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  os << "'" << type << "'";
  StringRef opName = mlir::mpi::stringifyMPI_ReductionOpEnum(op);
  switch (op) {
  case ReductionOp::MPI_OP_NULL:
    return "MPI_OP_NULL is no reduction";
  case ReductionOp::MPI_MINLOC:
  case ReductionOp::MPI_MAXLOC:
    return (opName +
            " reduces value-index pairs (MPI_FLOAT_INT, ...), which "
            "a memref of " +
            typeName + " is not")
        .str();
  case ReductionOp::MPI_REPLACE:
    return std::string("MPI_REPLACE is for one-sided accumulation, not "
                       "MPI_Allreduce");
  default:
    break;
  }
  bool logical = op == ReductionOp::MPI_LAND || op == ReductionOp::MPI_LOR ||
                 op == ReductionOp::MPI_LXOR;
  bool bitwise = op == ReductionOp::MPI_BAND || op == ReductionOp::MPI_BOR ||
                 op == ReductionOp::MPI_BXOR;
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return "MPI has no datatype to reduce " + typeName +
           " (it travels as 16-bit words, which send and recv take but no "
           "reduction can)";
  case ElementKind::F32:
  case ElementKind::F64:
    if (logical || bitwise)
      return ("MPI defines " + opName + " on integers" +
              (logical ? " and booleans" : "") + ", not on " + typeName)
          .str();
    return std::nullopt;
  case ElementKind::ComplexF32:
  case ElementKind::ComplexF64:
    if (op != ReductionOp::MPI_SUM && op != ReductionOp::MPI_PROD)
      return ("MPI defines only MPI_SUM and MPI_PROD on complex numbers, not " +
              opName + " on " + typeName)
          .str();
    return std::nullopt;
  case ElementKind::Bool:
    if (!logical)
      return ("MPI defines only MPI_LAND, MPI_LOR and MPI_LXOR on booleans "
              "(i1, MPI_C_BOOL), not " +
              opName)
          .str();
    return std::nullopt;
  default:
    // Integers take every operation but the pair ones.
    return std::nullopt;
  }
}

static constexpr llvm::StringLiteral kSupportedTypes =
    "f32, f64, f16, bf16, i1, i8, i16, i32, i64 (signless, signed or "
    "unsigned), index, complex<f32>, complex<f64>";

/// Checks what the patterns below take for granted about `op`: memref
/// operands of supported element types with an LLVM descriptor, and an
/// allreduce MPI can do. Errors are emitted at `op`.
static LogicalResult checkOp(Operation *op,
                             const LLVMTypeConverter &converter) {
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<BaseMemRefType>(operand.getType());
    if (!type)
      continue;
    Type element = type.getElementType();
    if (!getElementKind(element))
      return op->emitError("MPI has no datatype for element type ")
             << element << " of " << type << "; supported: " << kSupportedTypes;
    if (isa<IndexType>(element) && converter.getIndexTypeBitwidth() != 64)
      return op->emitError("index elements are ")
             << converter.getIndexTypeBitwidth()
             << " bits on this host; MPI's index datatype is int64";
    if (!converter.convertType(type))
      return op->emitError("memref type ")
             << type << " has no LLVM descriptor (its memory space?)";
  }
  auto allreduce = dyn_cast<mlir::mpi::AllReduceOp>(op);
  if (!allreduce)
    return success();
  auto send = cast<BaseMemRefType>(allreduce.getSendbuf().getType());
  auto recv = cast<BaseMemRefType>(allreduce.getRecvbuf().getType());
  if (send.getElementType() != recv.getElementType())
    return op->emitError("send buffer elements ")
           << send.getElementType() << " differ from receive buffer elements "
           << recv.getElementType() << "; MPI reduces one datatype";
  if (std::optional<std::string> problem =
          reductionProblem(*getElementKind(send.getElementType()),
                           send.getElementType(), allreduce.getOp()))
    return op->emitError(*problem);
  return success();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// What every pattern needs besides its op: the implementation's code and
/// the declarations of the entry points.
struct Lowering {
  Implementation implementation;

  Value implementationCode(OpBuilder &builder, Location loc) const {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                    static_cast<int32_t>(implementation));
  }

  /// Calls entry point `__kiln_mpi_<name>` (declared on first use) with
  /// the implementation's code and `args`; returns its result.
  Value call(ConversionPatternRewriter &rewriter, Operation *op, StringRef name,
             Type result, ValueRange args) const {
    Location loc = op->getLoc();
    SmallVector<Value> operands = {implementationCode(rewriter, loc)};
    operands.append(args.begin(), args.end());
    SmallVector<Type> argTypes(ValueRange(operands).getTypes());
    std::string symbol = ("__kiln_mpi_" + name).str();
    auto module = op->getParentOfType<ModuleOp>();
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (!fn) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      fn = LLVM::LLVMFuncOp::create(
          rewriter, module.getLoc(), symbol,
          LLVM::LLVMFunctionType::get(result, argTypes));
    }
    return LLVM::CallOp::create(rewriter, loc, fn, operands).getResult();
  }

  /// A stack slot for one `type`, allocated in the entry block of the
  /// function around `op`, so that ops in loops do not grow the stack (scf
  /// loops are allocation scopes of their own, which pop their allocas at
  /// every iteration). The body of an async.execute becomes a coroutine of
  /// its own: its slots are its own.
  static Value entryAlloca(ConversionPatternRewriter &rewriter, Operation *op,
                           Type type) {
    Operation *scope = op->getParentOp();
    while (!isa<FunctionOpInterface, async::ExecuteOp>(scope) &&
           !scope->hasTrait<OpTrait::IsIsolatedFromAbove>())
      scope = scope->getParentOp();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&scope->getRegion(0).front());
    Location loc = op->getLoc();
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                         static_cast<int64_t>(1));
    return LLVM::AllocaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), type,
        one);
  }

  /// A memref operand as the runtime takes it: rank, pointer to its ranked
  /// descriptor, element kind. `original` is the operand, `descriptor` its
  /// converted value (a ranked or unranked descriptor).
  static SmallVector<Value, 3> memrefArgs(ConversionPatternRewriter &rewriter,
                                          Operation *op, Value original,
                                          Value descriptor) {
    Location loc = op->getLoc();
    auto type = cast<BaseMemRefType>(original.getType());
    Value kind = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI32Type(),
        static_cast<int32_t>(*getElementKind(type.getElementType())));
    if (auto ranked = dyn_cast<MemRefType>(type)) {
      Value slot = entryAlloca(rewriter, op, descriptor.getType());
      LLVM::StoreOp::create(rewriter, loc, descriptor, slot);
      Value rank = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI64Type(), ranked.getRank());
      return {rank, slot, kind};
    }
    // An unranked descriptor is {rank, pointer to the ranked descriptor}.
    Value rank = LLVM::ExtractValueOp::create(rewriter, loc, descriptor, 0);
    Value pointer = LLVM::ExtractValueOp::create(rewriter, loc, descriptor, 1);
    return {rank, pointer, kind};
  }

  /// Calls `name` with `args` and a pointer to a fresh `slotType` slot
  /// after them; returns the call's result and what it left in the slot.
  std::pair<Value, Value> callWithOut(ConversionPatternRewriter &rewriter,
                                      Operation *op, StringRef name,
                                      SmallVector<Value> args,
                                      Type slotType) const {
    Value slot = entryAlloca(rewriter, op, slotType);
    args.push_back(slot);
    Value rc = call(rewriter, op, name, rewriter.getI32Type(), args);
    Value out = LLVM::LoadOp::create(rewriter, op->getLoc(), slotType, slot);
    return {rc, out};
  }
};

/// The base of the patterns: the converter and the shared lowering.
template <typename OpTy>
class MPIPattern : public ConvertOpToLLVMPattern<OpTy> {
public:
  MPIPattern(const LLVMTypeConverter &converter, const Lowering &lowering)
      : ConvertOpToLLVMPattern<OpTy>(converter), lowering(lowering) {}

protected:
  /// Replaces `op`, whose results are an optional !mpi.retval followed by
  /// `values`, with `rc` (where it has the retval) and `values`.
  static void replace(ConversionPatternRewriter &rewriter, OpTy op, Value rc,
                      ValueRange values = {}) {
    SmallVector<Value> results;
    if (op->getNumResults() > values.size())
      results.push_back(rc);
    results.append(values.begin(), values.end());
    rewriter.replaceOp(op, results);
  }

  const Lowering &lowering;
};

/// mpi.init and mpi.finalize: calls without arguments.
template <typename OpTy> class NullaryPattern : public MPIPattern<OpTy> {
public:
  NullaryPattern(const LLVMTypeConverter &converter, const Lowering &lowering,
                 StringRef name)
      : MPIPattern<OpTy>(converter, lowering), name(name) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value rc =
        this->lowering.call(rewriter, op, name, rewriter.getI32Type(), {});
    this->replace(rewriter, op, rc);
    return success();
  }

private:
  StringRef name;
};

class CommWorldPattern : public MPIPattern<mlir::mpi::CommWorldOp> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::CommWorldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowering.call(rewriter, op, "comm_world",
                                         rewriter.getI64Type(), {}));
    return success();
  }
};

/// mpi.comm_rank and mpi.comm_size: an i32 through a slot.
template <typename OpTy> class CommQueryPattern : public MPIPattern<OpTy> {
public:
  CommQueryPattern(const LLVMTypeConverter &converter, const Lowering &lowering,
                   StringRef name)
      : MPIPattern<OpTy>(converter, lowering), name(name) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [rc, value] = this->lowering.callWithOut(
        rewriter, op, name, {adaptor.getComm()}, rewriter.getI32Type());
    this->replace(rewriter, op, rc, value);
    return success();
  }

private:
  StringRef name;
};

/// mpi.comm_split: the new communicator through an i64 slot (a whole
/// MPI_Comm, a pointer in Open MPI).
class CommSplitPattern : public MPIPattern<mlir::mpi::CommSplitOp> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::CommSplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [rc, comm] = lowering.callWithOut(
        rewriter, op, "comm_split",
        {adaptor.getComm(), adaptor.getColor(), adaptor.getKey()},
        rewriter.getI64Type());
    replace(rewriter, op, rc, comm);
    return success();
  }
};

/// mpi.send, mpi.recv, mpi.isend, mpi.irecv: the memref, tag, peer and
/// communicator; the nonblocking ones return a request through a slot.
template <typename OpTy> class PointToPointPattern : public MPIPattern<OpTy> {
public:
  PointToPointPattern(const LLVMTypeConverter &converter,
                      const Lowering &lowering, StringRef name)
      : MPIPattern<OpTy>(converter, lowering), name(name) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> args =
        Lowering::memrefArgs(rewriter, op, op.getRef(), adaptor.getRef());
    args.push_back(adaptor.getTag());
    // The peer: dest of sends, source of receives.
    args.push_back(adaptor.getOperands()[2]);
    args.push_back(adaptor.getComm());
    if constexpr (std::is_same_v<OpTy, mlir::mpi::ISendOp> ||
                  std::is_same_v<OpTy, mlir::mpi::IRecvOp>) {
      auto [rc, request] = this->lowering.callWithOut(rewriter, op, name, args,
                                                      rewriter.getI64Type());
      this->replace(rewriter, op, rc, request);
    } else {
      Value rc =
          this->lowering.call(rewriter, op, name, rewriter.getI32Type(), args);
      this->replace(rewriter, op, rc);
    }
    return success();
  }

private:
  StringRef name;
};

class AllReducePattern : public MPIPattern<mlir::mpi::AllReduceOp> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The same value as send and receive buffer is MPI_IN_PLACE; the runtime
    // then reads only the receive buffer's descriptor.
    bool inPlace = op.getSendbuf() == op.getRecvbuf();
    SmallVector<Value, 3> recv = Lowering::memrefArgs(
        rewriter, op, op.getRecvbuf(), adaptor.getRecvbuf());
    SmallVector<Value, 3> send =
        inPlace ? recv
                : Lowering::memrefArgs(rewriter, op, op.getSendbuf(),
                                       adaptor.getSendbuf());
    Type i32 = rewriter.getI32Type();
    Value reduction = LLVM::ConstantOp::create(
        rewriter, loc, i32, static_cast<int32_t>(op.getOp()));
    Value inPlaceFlag =
        LLVM::ConstantOp::create(rewriter, loc, i32, inPlace ? 1 : 0);
    Value rc = lowering.call(rewriter, op, "allreduce", i32,
                             {send[0], send[1], recv[0], recv[1], recv[2],
                              reduction, inPlaceFlag, adaptor.getComm()});
    replace(rewriter, op, rc);
    return success();
  }
};

class BarrierPattern : public MPIPattern<mlir::mpi::Barrier> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::Barrier op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value rc = lowering.call(rewriter, op, "barrier", rewriter.getI32Type(),
                             {adaptor.getComm()});
    replace(rewriter, op, rc);
    return success();
  }
};

class WaitPattern : public MPIPattern<mlir::mpi::Wait> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::Wait op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value rc = lowering.call(rewriter, op, "wait", rewriter.getI32Type(),
                             {adaptor.getReq()});
    replace(rewriter, op, rc);
    return success();
  }
};

class ErrorClassPattern : public MPIPattern<mlir::mpi::ErrorClassOp> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::ErrorClassOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowering.call(rewriter, op, "error_class",
                                         rewriter.getI32Type(),
                                         {adaptor.getVal()}));
    return success();
  }
};

/// mpi.retval_check: the runtime compares with the implementation's code
/// of the class (numbered as MPI_ErrorClassEnum).
class RetvalCheckPattern : public MPIPattern<mlir::mpi::RetvalCheckOp> {
public:
  using MPIPattern::MPIPattern;
  LogicalResult
  matchAndRewrite(mlir::mpi::RetvalCheckOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value errorClass = LLVM::ConstantOp::create(
        rewriter, loc, i32, static_cast<int32_t>(op.getErrclass()));
    Value is = lowering.call(rewriter, op, "retval_check", i32,
                             {adaptor.getVal(), errorClass});
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i32, 0);
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::ne, is,
                                              zero);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// The implementation
//===----------------------------------------------------------------------===//

static StringRef attributeName(Implementation implementation) {
  return implementation == Implementation::OpenMPI ? "OpenMPI" : "MPICH";
}

FailureOr<Implementation> kiln::resolveMPIImplementation(ModuleOp module,
                                                         StringRef requested,
                                                         bool required,
                                                         StringRef origin) {
  std::optional<Implementation> fallback;
  if (requested == "openmpi")
    fallback = Implementation::OpenMPI;
  else if (requested == "mpich")
    fallback = Implementation::MPICH;
  if (!fallback)
    return module.emitError("unknown MPI implementation in ")
           << origin << "; supported: openmpi, mpich";

  MLIRContext *context = module.getContext();
  FailureOr<Attribute> entry =
      dlti::query(module, {StringRef(kImplementationKey)},
                  /*emitError=*/false);
  if (succeeded(entry)) {
    auto name = dyn_cast<StringAttr>(*entry);
    std::optional<Implementation> implementation;
    if (name && name.getValue() == "OpenMPI")
      implementation = Implementation::OpenMPI;
    else if (name && name.getValue() == "MPICH")
      implementation = Implementation::MPICH;
    if (!implementation)
      return module.emitError("unknown MPI implementation ")
             << *entry << " in the module's #dlti.map<\"" << kImplementationKey
             << "\">; supported: \"OpenMPI\", \"MPICH\"";
    if (required && *implementation != *fallback)
      return module.emitError("the module's #dlti.map<\"")
             << kImplementationKey << "\" = \""
             << attributeName(*implementation) << "\"> conflicts with "
             << origin;
    return *implementation;
  }

  SmallVector<DataLayoutEntryInterface> entries;
  if (Attribute existing = module->getAttr(DLTIDialect::kMapAttrName)) {
    auto map = dyn_cast<MapAttr>(existing);
    if (!map)
      return module.emitError("the module's '")
             << DLTIDialect::kMapAttrName << "' is " << existing
             << ", not a #dlti.map; cannot record the MPI implementation";
    llvm::append_range(entries, map.getEntries());
  }
  entries.push_back(DataLayoutEntryAttr::get(
      StringAttr::get(context, kImplementationKey),
      StringAttr::get(context, attributeName(*fallback))));
  module->setAttr(DLTIDialect::kMapAttrName, MapAttr::get(context, entries));
  return *fallback;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Removes the implementation from the module's `dlti.map` (and the map when
/// nothing else is left in it) once every call names it: MLIR's own runner
/// does not register the DLTI dialect, and the lowered module must load
/// there (`kiln-opt --kiln-gpu-to-vulkan | mlir-runner`).
static void dropImplementationEntry(ModuleOp module) {
  auto map = dyn_cast_or_null<MapAttr>(
      module->getAttr(DLTIDialect::kMapAttrName));
  if (!map)
    return;
  SmallVector<DataLayoutEntryInterface> kept;
  for (DataLayoutEntryInterface entry : map.getEntries()) {
    auto key = llvm::dyn_cast_if_present<StringAttr>(entry.getKey());
    if (!key || key.getValue() != kImplementationKey)
      kept.push_back(entry);
  }
  if (kept.empty())
    module->removeAttr(DLTIDialect::kMapAttrName);
  else
    module->setAttr(DLTIDialect::kMapAttrName,
                    MapAttr::get(module.getContext(), kept));
}

namespace {
class MPIToLLVMPass : public kiln::impl::KilnMPIToLLVMBase<MPIToLLVMPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (implementation != "openmpi" && implementation != "mpich") {
      module.emitError("unknown kiln-mpi-to-llvm implementation='")
          << implementation << "'; supported: openmpi, mpich";
      return signalPassFailure();
    }
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    Type i64 = IntegerType::get(context, 64);
    Type i32 = IntegerType::get(context, 32);
    converter.addConversion([i64](mlir::mpi::CommType) { return i64; });
    converter.addConversion([i64](mlir::mpi::RequestType) { return i64; });
    converter.addConversion([i32](mlir::mpi::RetvalType) { return i32; });

    bool hasMPI = false, valid = true;
    module.walk([&](Operation *op) {
      if (!isa<mlir::mpi::MPIDialect>(op->getDialect()))
        return;
      hasMPI = true;
      valid &= succeeded(checkOp(op, converter));
    });
    if (!hasMPI)
      return;
    if (!valid)
      return signalPassFailure();
    FailureOr<Implementation> impl = kiln::resolveMPIImplementation(
        module, implementation, /*required=*/implementation.hasValue(),
        "kiln-mpi-to-llvm implementation=" + implementation);
    if (failed(impl))
      return signalPassFailure();

    Lowering lowering{*impl};
    RewritePatternSet patterns(context);
    patterns.add<NullaryPattern<mlir::mpi::InitOp>>(converter, lowering,
                                                    "init");
    patterns.add<NullaryPattern<mlir::mpi::FinalizeOp>>(converter, lowering,
                                                        "finalize");
    patterns.add<CommQueryPattern<mlir::mpi::CommRankOp>>(converter, lowering,
                                                          "comm_rank");
    patterns.add<CommQueryPattern<mlir::mpi::CommSizeOp>>(converter, lowering,
                                                          "comm_size");
    patterns.add<PointToPointPattern<mlir::mpi::SendOp>>(converter, lowering,
                                                         "send");
    patterns.add<PointToPointPattern<mlir::mpi::RecvOp>>(converter, lowering,
                                                         "recv");
    patterns.add<PointToPointPattern<mlir::mpi::ISendOp>>(converter, lowering,
                                                          "isend");
    patterns.add<PointToPointPattern<mlir::mpi::IRecvOp>>(converter, lowering,
                                                          "irecv");
    patterns.add<CommWorldPattern, CommSplitPattern, AllReducePattern,
                 BarrierPattern, WaitPattern, ErrorClassPattern,
                 RetvalCheckPattern>(converter, lowering);

    // !mpi.comm, !mpi.request and !mpi.retval values that cross functions,
    // blocks or scf regions take the same integer types there; nothing else
    // changes type outside the mpi ops.
    TypeConverter mpiTypes;
    mpiTypes.addConversion([](Type type) { return type; });
    mpiTypes.addConversion([i64](mlir::mpi::CommType) { return i64; });
    mpiTypes.addConversion([i64](mlir::mpi::RequestType) { return i64; });
    mpiTypes.addConversion([i32](mlir::mpi::RetvalType) { return i32; });
    ConversionTarget target(*context);
    target.addIllegalDialect<mlir::mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto function = dyn_cast<FunctionOpInterface>(op)) {
        auto type = dyn_cast<FunctionType>(function.getFunctionType());
        return (!type || mpiTypes.isSignatureLegal(type)) &&
               mpiTypes.isLegal(&function.getFunctionBody());
      }
      return mpiTypes.isLegal(op);
    });
    populateAnyFunctionOpInterfaceTypeConversionPattern(patterns, mpiTypes);
    populateCallOpTypeConversionPattern(patterns, mpiTypes);
    populateReturnOpTypeConversionPattern(patterns, mpiTypes);
    populateBranchOpInterfaceTypeConversionPattern(patterns, mpiTypes);
    scf::populateSCFStructuralTypeConversions(mpiTypes, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    dropImplementationEntry(module);
  }
};
} // namespace
