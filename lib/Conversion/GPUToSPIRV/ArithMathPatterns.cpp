//===- ArithMathPatterns.cpp - Kiln's arith and math to SPIR-V patterns ---===//
//
// Where MLIR 22's arith and math patterns compute a wrong value at an edge
// (arith.remsi with the minimum integer, the signed zeros of
// minimumf / maximumf, remf's sign and infinite divisors) or have none
// (math.exp2, trunc, cttz, ctpop), these take precedence. Each is checked
// against the host on edge values by test/Ops.
//
//===----------------------------------------------------------------------===//

#include "ArithMathPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

/// The integer type of `type`'s width, with its shape.
Type bitsType(Type type) {
  Type element = getElementTypeOrSelf(type);
  Type integer = IntegerType::get(type.getContext(),
                                  element.getIntOrFloatBitWidth());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(integer);
  return integer;
}

/// A constant of `type` (scalar or vector) from an integer or a double.
Value splat(OpBuilder &b, Location loc, Type type, const APInt &bits) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar = IntegerAttr::get(element, bits);
  if (auto vector = dyn_cast<VectorType>(type))
    return spirv::ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(vector, scalar));
  return spirv::ConstantOp::create(b, loc, type, scalar);
}

Value splatInt(OpBuilder &b, Location loc, Type type, int64_t v) {
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  return splat(b, loc, type, APInt(width, v, /*isSigned=*/true));
}

/// arith.remsi: |a| mod |b| taken as unsigned numbers, with the sign of a.
/// MLIR 22 decides the sign with a == |a|, which holds for the minimum
/// integer (whose SAbs is itself), so INT_MIN rem 7 came out 2 instead of
/// -2. (SPIR-V's SRem is undefined on Vulkan for negative operands.)
struct RemSIPattern : OpConversionPattern<arith::RemSIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::RemSIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || adaptor.getLhs().getType() != type)
      return rewriter.notifyMatchFailure(op, "unconvertible type");
    Location loc = op.getLoc();
    Value a = adaptor.getLhs(), b = adaptor.getRhs();
    Value zero = splatInt(rewriter, loc, type, 0);
    Value aNeg = spirv::SLessThanOp::create(rewriter, loc, a, zero);
    Value bNeg = spirv::SLessThanOp::create(rewriter, loc, b, zero);
    Value absA = spirv::SelectOp::create(
        rewriter, loc, aNeg, spirv::SNegateOp::create(rewriter, loc, a), a);
    Value absB = spirv::SelectOp::create(
        rewriter, loc, bNeg, spirv::SNegateOp::create(rewriter, loc, b), b);
    Value r = spirv::UModOp::create(rewriter, loc, absA, absB);
    rewriter.replaceOpWithNewOp<spirv::SelectOp>(
        op, aNeg, spirv::SNegateOp::create(rewriter, loc, r), r);
    return success();
  }
};

/// arith.minimumf / maximumf: NaN if either operand is, and -0 below +0.
/// GLSL's FMin / FMax are undefined for NaN and may return either zero:
/// for equal operands the result is the OR (minimum) or AND (maximum) of
/// their bits, which picks -0 (+0) and changes nothing else.
/// arith.minnumf / maxnumf: the other operand where one is NaN.
template <typename OpT, bool isMin, bool propagateNaN>
struct FloatMinMaxPattern : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type || adaptor.getLhs().getType() != type)
      return rewriter.notifyMatchFailure(op, "unconvertible type");
    Location loc = op.getLoc();
    Value a = adaptor.getLhs(), b = adaptor.getRhs();
    Value m = isMin ? spirv::GLFMinOp::create(rewriter, loc, a, b).getResult()
                    : spirv::GLFMaxOp::create(rewriter, loc, a, b).getResult();
    Value aNaN = spirv::IsNanOp::create(rewriter, loc, a);
    Value bNaN = spirv::IsNanOp::create(rewriter, loc, b);
    if (propagateNaN) {
      Type bits = bitsType(type);
      Value equal = spirv::FOrdEqualOp::create(rewriter, loc, a, b);
      Value ia = spirv::BitcastOp::create(rewriter, loc, bits, a);
      Value ib = spirv::BitcastOp::create(rewriter, loc, bits, b);
      Value merged =
          isMin ? spirv::BitwiseOrOp::create(rewriter, loc, ia, ib).getResult()
                : spirv::BitwiseAndOp::create(rewriter, loc, ia, ib)
                      .getResult();
      Value zeros = spirv::BitcastOp::create(rewriter, loc, type, merged);
      m = spirv::SelectOp::create(rewriter, loc, equal, zeros, m);
      // a + b is NaN where either is.
      Value anyNaN = spirv::LogicalOrOp::create(rewriter, loc, aNaN, bNaN);
      Value nan = spirv::FAddOp::create(rewriter, loc, a, b);
      rewriter.replaceOpWithNewOp<spirv::SelectOp>(op, anyNaN, nan, m);
      return success();
    }
    m = spirv::SelectOp::create(rewriter, loc, bNaN, a, m);
    rewriter.replaceOpWithNewOp<spirv::SelectOp>(op, aNaN, b, m);
    return success();
  }
};

/// arith.remf is C's fmod: the sign of the dividend (also of a zero
/// result), and the dividend itself for an infinite divisor. SPIR-V's FRem
/// is x - y * trunc(x / y): +0 for -0 rem 1, NaN for x rem inf.
struct RemFPattern : OpConversionPattern<arith::RemFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::RemFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || adaptor.getLhs().getType() != type)
      return rewriter.notifyMatchFailure(op, "unconvertible type");
    Location loc = op.getLoc();
    Value a = adaptor.getLhs(), b = adaptor.getRhs();
    Value r = spirv::FRemOp::create(rewriter, loc, a, b);
    Type bits = bitsType(type);
    unsigned width = getElementTypeOrSelf(bits).getIntOrFloatBitWidth();
    Value sign = splat(rewriter, loc, bits, APInt::getSignMask(width));
    Value magnitude = splat(rewriter, loc, bits, ~APInt::getSignMask(width));
    Value ir = spirv::BitcastOp::create(rewriter, loc, bits, r);
    Value ia = spirv::BitcastOp::create(rewriter, loc, bits, a);
    Value signed_ = spirv::BitwiseOrOp::create(
        rewriter, loc, spirv::BitwiseAndOp::create(rewriter, loc, ir, magnitude),
        spirv::BitwiseAndOp::create(rewriter, loc, ia, sign));
    // A NaN result stays NaN whatever its sign.
    Value fixed = spirv::BitcastOp::create(rewriter, loc, type, signed_);
    Value bInf = spirv::IsInfOp::create(rewriter, loc, b);
    Value aFinite = spirv::LogicalNotOp::create(
        rewriter, loc,
        spirv::LogicalOrOp::create(
            rewriter, loc, spirv::IsInfOp::create(rewriter, loc, a),
            spirv::IsNanOp::create(rewriter, loc, a)));
    Value keepA = spirv::LogicalAndOp::create(rewriter, loc, bInf, aFinite);
    rewriter.replaceOpWithNewOp<spirv::SelectOp>(op, keepA, a, fixed);
    return success();
  }
};

/// math.exp2: GLSL's Exp2 (16- and 32-bit floats).
struct Exp2Pattern : OpConversionPattern<math::Exp2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || getElementTypeOrSelf(type).getIntOrFloatBitWidth() > 32)
      return rewriter.notifyMatchFailure(op, "GLSL's Exp2 is 16/32-bit");
    rewriter.replaceOpWithNewOp<spirv::GLExp2Op>(op, type,
                                                 adaptor.getOperand());
    return success();
  }
};

/// math.trunc: floor(|x|) with the sign of x (GLSL.std.450's Trunc has no
/// op in MLIR 22); NaN and infinities pass through.
struct TruncPattern : OpConversionPattern<math::TruncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::TruncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unconvertible type");
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Value floor = spirv::GLFloorOp::create(
        rewriter, loc, spirv::GLFAbsOp::create(rewriter, loc, x));
    Type bits = bitsType(type);
    unsigned width = getElementTypeOrSelf(bits).getIntOrFloatBitWidth();
    Value sign = splat(rewriter, loc, bits, APInt::getSignMask(width));
    Value withSign = spirv::BitwiseOrOp::create(
        rewriter, loc, spirv::BitcastOp::create(rewriter, loc, bits, floor),
        spirv::BitwiseAndOp::create(
            rewriter, loc, spirv::BitcastOp::create(rewriter, loc, bits, x),
            sign));
    rewriter.replaceOpWithNewOp<spirv::BitcastOp>(op, type, withSign);
    return success();
  }
};

/// The converted type of a 32-bit integer op's result, or null for other
/// widths (rewritten to 32 bits before the conversion: Vulkan's bit
/// instructions take 32-bit integers only).
static Type converted32(const TypeConverter &converter, Type type) {
  Type converted = converter.convertType(type);
  if (!converted || !getElementTypeOrSelf(converted).isInteger(32) ||
      !getElementTypeOrSelf(type).isInteger(32))
    return nullptr;
  return converted;
}

/// math.cttz of 32-bit integers: FindILsb, which gives -1 for 0: 32 there.
struct CttzPattern : OpConversionPattern<math::CountTrailingZerosOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::CountTrailingZerosOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = converted32(*getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "not 32 bits");
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Value lsb = spirv::GLFindILsbOp::create(rewriter, loc, x);
    Value zero = splatInt(rewriter, loc, type, 0);
    Value isZero = spirv::IEqualOp::create(rewriter, loc, x, zero);
    rewriter.replaceOpWithNewOp<spirv::SelectOp>(
        op, isZero, splatInt(rewriter, loc, type, 32), lsb);
    return success();
  }
};

/// math.ctpop of 32-bit integers: BitCount.
struct CtPopPattern : OpConversionPattern<math::CtPopOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::CtPopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = converted32(*getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "not 32 bits");
    rewriter.replaceOpWithNewOp<spirv::BitCountOp>(op, type,
                                                   adaptor.getOperand());
    return success();
  }
};

/// A private array with an initial value (a constant global the kernel
/// reads, kiln-expand-kernel-ops): a Function variable at the top of the
/// function, as SPIR-V requires, that a constant array is stored into.
struct InitializedAllocaPattern : OpConversionPattern<memref::AllocaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::AllocaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = op->getAttrOfType<DenseElementsAttr>("kiln_initial_value");
    if (!value)
      return failure();
    auto ptr = dyn_cast_or_null<spirv::PointerType>(
        getTypeConverter()->convertType(op.getType()));
    if (!ptr || ptr.getStorageClass() != spirv::StorageClass::Function)
      return rewriter.notifyMatchFailure(op, "not private memory");
    // Private arrays are structs of one array (as buffers are).
    auto wrapper = dyn_cast<spirv::StructType>(ptr.getPointeeType());
    auto array = dyn_cast<spirv::ArrayType>(
        wrapper && wrapper.getNumElements() == 1 ? wrapper.getElementType(0)
                                                 : ptr.getPointeeType());
    if (!array || array.getElementType() != value.getElementType())
      return rewriter.notifyMatchFailure(op, "element type changes");
    auto flat = value.reshape(RankedTensorType::get(
        {int64_t(array.getNumElements())}, value.getElementType()));
    Location loc = op.getLoc();
    Block *entry =
        &op->getParentOfType<FunctionOpInterface>().getFunctionBody().front();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(entry);
    Value init = spirv::ConstantOp::create(rewriter, loc, array, flat);
    if (wrapper)
      init = spirv::CompositeConstructOp::create(rewriter, loc, wrapper,
                                                 ValueRange{init});
    auto var = spirv::VariableOp::create(
        rewriter, loc, ptr, spirv::StorageClass::Function, Value());
    spirv::StoreOp::create(rewriter, loc, var, init);
    rewriter.replaceOp(op, var.getResult());
    return success();
  }
};

/// memref.atomic_rmw kinds MLIR 22 does not lower to SPIR-V though SPIR-V
/// has them: xori (AtomicXor), assign (AtomicExchange, integers and floats)
/// and addf (AtomicFAddEXT, where the target env has AtomicFloat32AddEXT /
/// AtomicFloat64AddEXT; otherwise the op is reported with what it needs).
/// Relaxed: the op promises atomicity, not ordering.
struct AtomicRMWPattern : OpConversionPattern<memref::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using K = arith::AtomicRMWKind;
    K kind = op.getKind();
    if (kind != K::xori && kind != K::assign && kind != K::addf)
      return failure();
    MemRefType memrefType = op.getMemref().getType();
    auto storage =
        dyn_cast<spirv::StorageClassAttr>(memrefType.getMemorySpace());
    if (!storage)
      return rewriter.notifyMatchFailure(op, "memory space not converted");
    const auto &converter = *getTypeConverter<SPIRVTypeConverter>();
    Type type = converter.convertType(op.getType());
    Location loc = op.getLoc();
    Value ptr = spirv::getElementPtr(converter, memrefType, adaptor.getMemref(),
                                     adaptor.getIndices(), loc, rewriter);
    if (!type || !ptr)
      return rewriter.notifyMatchFailure(op, "cannot address the element");
    MLIRContext *ctx = op.getContext();
    auto scope = spirv::ScopeAttr::get(
        ctx, storage.getValue() == spirv::StorageClass::Workgroup
                 ? spirv::Scope::Workgroup
                 : spirv::Scope::Device);
    auto relaxed =
        spirv::MemorySemanticsAttr::get(ctx, spirv::MemorySemantics::None);
    Value v = adaptor.getValue();
    Value r;
    if (kind == K::xori)
      r = spirv::AtomicXorOp::create(rewriter, loc, type, ptr, scope, relaxed,
                                     v);
    else if (kind == K::assign)
      r = spirv::AtomicExchangeOp::create(rewriter, loc, type, ptr, scope,
                                          relaxed, v);
    else
      r = spirv::EXTAtomicFAddOp::create(rewriter, loc, type, ptr, scope,
                                         relaxed, v);
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void kiln::populateArithMathToSPIRVPatterns(
    const SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<RemSIPattern, RemFPattern, Exp2Pattern, TruncPattern,
               InitializedAllocaPattern, AtomicRMWPattern, CttzPattern,
               CtPopPattern, FloatMinMaxPattern<arith::MinimumFOp, true, true>,
               FloatMinMaxPattern<arith::MaximumFOp, false, true>,
               FloatMinMaxPattern<arith::MinNumFOp, true, false>,
               FloatMinMaxPattern<arith::MaxNumFOp, false, false>>(
      typeConverter, ctx, /*benefit=*/2);
}
