//===- ExtendedOps.cpp - SPIR-V ops upstream's LLVM lowering lacks --------===//
//
// GLSL.std.450 functions (Exp2, Pow, the inverse trigonometric and
// hyperbolic ones, FindILsb / FindUMsb / FindSMsb), the extended
// arithmetic (IAddCarry, ISubBorrow, SMulExtended, UMulExtended), dynamic
// vector element access, constant and constructed arrays and structs and a
// ballot's lowest lane, which MLIR 22's SPIR-V to LLVM conversion leaves
// out, for the spirv-cpu target. Each is checked against the host by
// test/Ops.
//
//===----------------------------------------------------------------------===//

#include "ExtendedOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

/// A constant of `type` (a scalar or vector of floats or integers).
Value splat(OpBuilder &b, Location loc, Type type, double fp, int64_t i) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar = isa<FloatType>(element)
                         ? TypedAttr(b.getFloatAttr(element, fp))
                         : TypedAttr(b.getIntegerAttr(element, i));
  Attribute value = scalar;
  if (auto vector = dyn_cast<VectorType>(type))
    value = SplatElementsAttr::get(vector, scalar);
  return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(value));
}

/// A one-operand GLSL op as the LLVM intrinsic of the same meaning.
template <typename Op, typename LLVMOp>
struct UnaryIntrinsic : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVMOp>(op, adaptor.getOperand());
    return success();
  }
};

struct PowPattern : OpConversionPattern<spirv::GLPowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::GLPowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::PowOp>(op, adaptor.getLhs(),
                                             adaptor.getRhs());
    return success();
  }
};

/// Asinh, Acosh and Atanh through log and sqrt (LLVM has no intrinsics for
/// them): asinh(x) = sign(x) log(|x| + sqrt(x^2 + 1)), acosh(x) =
/// log(x + sqrt(x^2 - 1)), atanh(x) = log((1 + x) / (1 - x)) / 2.
template <typename Op> struct InverseHyperbolic : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Type type = x.getType();
    Value one = splat(rewriter, loc, type, 1.0, 0);
    Value r;
    if (std::is_same<Op, spirv::GLAtanhOp>::value) {
      Value num = LLVM::FAddOp::create(rewriter, loc, one, x);
      Value den = LLVM::FSubOp::create(rewriter, loc, one, x);
      Value log = LLVM::LogOp::create(
          rewriter, loc, LLVM::FDivOp::create(rewriter, loc, num, den));
      r = LLVM::FMulOp::create(rewriter, loc, log,
                               splat(rewriter, loc, type, 0.5, 0));
    } else {
      bool isAsinh = std::is_same<Op, spirv::GLAsinhOp>::value;
      Value base =
          isAsinh ? LLVM::FAbsOp::create(rewriter, loc, x).getResult() : x;
      Value square = LLVM::FMulOp::create(rewriter, loc, base, base);
      Value inner =
          isAsinh
              ? LLVM::FAddOp::create(rewriter, loc, square, one).getResult()
              : LLVM::FSubOp::create(rewriter, loc, square, one).getResult();
      Value root = LLVM::SqrtOp::create(rewriter, loc, inner);
      r = LLVM::LogOp::create(rewriter, loc,
                              LLVM::FAddOp::create(rewriter, loc, base, root));
      if (isAsinh)
        r = LLVM::CopySignOp::create(rewriter, loc, r, x);
    }
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// FindILsb: the lowest set bit, -1 for 0. FindUMsb: the highest, -1 for 0.
/// FindSMsb: the highest bit that differs from the sign bit, -1 for 0 and
/// -1.
template <typename Op> struct FindBit : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Type type = x.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    auto noPoison = rewriter.getBoolAttr(false);
    if (std::is_same<Op, spirv::GLFindILsbOp>::value) {
      Value tz =
          LLVM::CountTrailingZerosOp::create(rewriter, loc, type, x, noPoison);
      Value zero = splat(rewriter, loc, type, 0, 0);
      Value isZero =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, x, zero);
      rewriter.replaceOpWithNewOp<LLVM::SelectOp>(
          op, isZero, splat(rewriter, loc, type, 0, -1), tz);
      return success();
    }
    if (std::is_same<Op, spirv::GLFindSMsbOp>::value) {
      // The magnitude bits of a negative number are those of its complement.
      Value shift = splat(rewriter, loc, type, 0, width - 1);
      Value sign = LLVM::AShrOp::create(rewriter, loc, x, shift);
      x = LLVM::XOrOp::create(rewriter, loc, x, sign);
    }
    Value lz =
        LLVM::CountLeadingZerosOp::create(rewriter, loc, type, x, noPoison);
    rewriter.replaceOpWithNewOp<LLVM::SubOp>(
        op, splat(rewriter, loc, type, 0, width - 1), lz);
    return success();
  }
};

/// IAddCarry / ISubBorrow: the result and the carry (borrow) as 0 or 1 in
/// a struct of two integers.
template <typename Op, typename WithOverflow>
struct CarryPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type result = this->getTypeConverter()->convertType(op.getType());
    auto st = dyn_cast_or_null<LLVM::LLVMStructType>(result);
    if (!st)
      return failure();
    Type type = adaptor.getOperand1().getType();
    Type flags = IntegerType::get(op.getContext(), 1);
    if (auto v = dyn_cast<VectorType>(type))
      flags = v.clone(flags);
    auto pair =
        LLVM::LLVMStructType::getLiteral(op.getContext(), {type, flags});
    Value both = WithOverflow::create(
        rewriter, loc, pair, adaptor.getOperand1(), adaptor.getOperand2());
    Value value =
        LLVM::ExtractValueOp::create(rewriter, loc, both, ArrayRef<int64_t>{0});
    Value carry =
        LLVM::ZExtOp::create(rewriter, loc, type,
                             LLVM::ExtractValueOp::create(
                                 rewriter, loc, both, ArrayRef<int64_t>{1}));
    Value out = LLVM::UndefOp::create(rewriter, loc, st);
    out = LLVM::InsertValueOp::create(rewriter, loc, out, value,
                                      ArrayRef<int64_t>{0});
    out = LLVM::InsertValueOp::create(rewriter, loc, out, carry,
                                      ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// SMulExtended / UMulExtended: the low and high halves of the full product.
template <typename Op, bool isSigned>
struct MulExtendedPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto st = dyn_cast_or_null<LLVM::LLVMStructType>(
        this->getTypeConverter()->convertType(op.getType()));
    if (!st)
      return failure();
    Type type = adaptor.getOperand1().getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Type wide = IntegerType::get(op.getContext(), 2 * width);
    if (auto v = dyn_cast<VectorType>(type))
      wide = v.clone(wide);
    auto extend = [&](Value v) -> Value {
      if (isSigned)
        return LLVM::SExtOp::create(rewriter, loc, wide, v);
      return LLVM::ZExtOp::create(rewriter, loc, wide, v);
    };
    Value product =
        LLVM::MulOp::create(rewriter, loc, extend(adaptor.getOperand1()),
                            extend(adaptor.getOperand2()));
    Value low = LLVM::TruncOp::create(rewriter, loc, type, product);
    Value high = LLVM::TruncOp::create(
        rewriter, loc, type,
        LLVM::LShrOp::create(rewriter, loc, product,
                             splat(rewriter, loc, wide, 0, width)));
    Value out = LLVM::UndefOp::create(rewriter, loc, st);
    out = LLVM::InsertValueOp::create(rewriter, loc, out, low,
                                      ArrayRef<int64_t>{0});
    out = LLVM::InsertValueOp::create(rewriter, loc, out, high,
                                      ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct ExtractDynamicPattern
    : OpConversionPattern<spirv::VectorExtractDynamicOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::VectorExtractDynamicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ExtractElementOp>(op, adaptor.getVector(),
                                                        adaptor.getIndex());
    return success();
  }
};

struct InsertDynamicPattern
    : OpConversionPattern<spirv::VectorInsertDynamicOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::VectorInsertDynamicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::InsertElementOp>(
        op, adaptor.getVector(), adaptor.getComponent(), adaptor.getIndex());
    return success();
  }
};

/// An aggregate value (an LLVM array or struct) built from `parts` with
/// insertvalue into poison.
Value buildAggregate(OpBuilder &b, Location loc, Type type, ValueRange parts) {
  Value result = LLVM::PoisonOp::create(b, loc, type);
  for (auto [i, part] : llvm::enumerate(parts))
    result = LLVM::InsertValueOp::create(b, loc, result, part,
                                         ArrayRef<int64_t>{int64_t(i)});
  return result;
}

/// The LLVM value of constant `value` of LLVM type `type` (a scalar, a
/// vector, or an array of them), or null.
Value constantValue(OpBuilder &b, Location loc, Type type, Attribute value) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(type);
  if (!array)
    return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(value));
  Type element = array.getElementType();
  SmallVector<Attribute> elements;
  if (auto list = dyn_cast<ArrayAttr>(value))
    elements.assign(list.begin(), list.end());
  else if (auto dense = dyn_cast<DenseElementsAttr>(value);
           dense && !isa<LLVM::LLVMArrayType, VectorType>(element))
    elements.assign(dense.getValues<Attribute>().begin(),
                    dense.getValues<Attribute>().end());
  else
    return {};
  if (elements.size() != array.getNumElements())
    return {};
  SmallVector<Value> parts;
  for (Attribute e : elements) {
    Value part = constantValue(b, loc, element, e);
    if (!part)
      return {};
    parts.push_back(part);
  }
  return buildAggregate(b, loc, type, parts);
}

/// spirv.Constant of an array (a constant table: memref.global constants
/// Kiln keeps in private memory), which upstream's lowering leaves to
/// scalars and vectors.
struct ArrayConstantPattern : OpConversionPattern<spirv::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<spirv::ArrayType>(op.getType()))
      return failure();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "array type not converted");
    Value value = constantValue(rewriter, op.getLoc(), type, op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "unsupported constant");
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// spirv.CompositeConstruct of an array or a struct.
struct AggregateConstructPattern
    : OpConversionPattern<spirv::CompositeConstructOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::CompositeConstructOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<spirv::ArrayType, spirv::StructType>(op.getType()))
      return failure();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "type not converted");
    rewriter.replaceOp(op, buildAggregate(rewriter, op.getLoc(), type,
                                          adaptor.getConstituents()));
    return success();
  }
};

/// spirv.GroupNonUniformBallotFindLSB: the lowest set bit of a ballot (four
/// 32-bit words, lane 0 the lowest bit of the first), as cttz of the first
/// word that is not zero.
struct BallotFindLSBPattern
    : OpConversionPattern<spirv::GroupNonUniformBallotFindLSBOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::GroupNonUniformBallotFindLSBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value ballot = adaptor.getValue();
    auto vector = dyn_cast<VectorType>(ballot.getType());
    Type i32 = rewriter.getI32Type();
    if (!vector || vector.getElementType() != i32)
      return rewriter.notifyMatchFailure(op, "not a vector of i32");
    Value zero = splat(rewriter, loc, i32, 0, 0);
    // From the last word down: the answer of the first non-zero word wins.
    Value result = splat(rewriter, loc, i32, 0, -1);
    for (int64_t i = vector.getNumElements() - 1; i >= 0; --i) {
      Value index = splat(rewriter, loc, i32, 0, i);
      Value word = LLVM::ExtractElementOp::create(rewriter, loc, ballot, index);
      Value bit = LLVM::CountTrailingZerosOp::create(rewriter, loc, i32, word,
                                                     /*is_zero_poison=*/false);
      Value at = LLVM::AddOp::create(rewriter, loc, bit,
                                     splat(rewriter, loc, i32, 0, 32 * i));
      Value set = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                       word, zero);
      result = LLVM::SelectOp::create(rewriter, loc, set, at, result);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void kiln::populateSPIRVCPUExtendedOpPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<
      UnaryIntrinsic<spirv::GLExp2Op, LLVM::Exp2Op>,
      UnaryIntrinsic<spirv::GLAsinOp, LLVM::ASinOp>,
      UnaryIntrinsic<spirv::GLAcosOp, LLVM::ACosOp>,
      UnaryIntrinsic<spirv::GLAtanOp, LLVM::ATanOp>,
      UnaryIntrinsic<spirv::GLSinhOp, LLVM::SinhOp>,
      UnaryIntrinsic<spirv::GLCoshOp, LLVM::CoshOp>, PowPattern,
      InverseHyperbolic<spirv::GLAsinhOp>, InverseHyperbolic<spirv::GLAcoshOp>,
      InverseHyperbolic<spirv::GLAtanhOp>, FindBit<spirv::GLFindILsbOp>,
      FindBit<spirv::GLFindUMsbOp>, FindBit<spirv::GLFindSMsbOp>,
      CarryPattern<spirv::IAddCarryOp, LLVM::UAddWithOverflowOp>,
      CarryPattern<spirv::ISubBorrowOp, LLVM::USubWithOverflowOp>,
      MulExtendedPattern<spirv::SMulExtendedOp, true>,
      MulExtendedPattern<spirv::UMulExtendedOp, false>, ExtractDynamicPattern,
      InsertDynamicPattern, ArrayConstantPattern, AggregateConstructPattern,
      BallotFindLSBPattern>(converter, patterns.getContext(), /*benefit=*/10);
}
