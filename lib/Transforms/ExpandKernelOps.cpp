//===- ExpandKernelOps.cpp - Ops a target lacks, in terms of ops it has ---===//
//
// Before the conversion to SPIR-V or NVVM, every op the target has no
// (correct) lowering for is rewritten in terms of ops it has, as upstream's
// NVVM pipeline expands math before converting. docs/ops.md lists which op
// takes which path on which target; test/Ops checks each against the host.
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/Container.h"
#include "kiln/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace kiln {
#define GEN_PASS_DEF_KILNEXPANDKERNELOPS
#include "kiln/Transforms/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// A constant of `type` (a scalar or vector of ints or floats) splatted.
Value constantLike(OpBuilder &b, Location loc, Type type, double value) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar;
  if (auto f = dyn_cast<FloatType>(element))
    scalar = b.getFloatAttr(f, value);
  else
    scalar = b.getIntegerAttr(element, static_cast<int64_t>(value));
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector,
                                                                    scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// A float constant from its bits, splatted to `type`.
Value floatBits(OpBuilder &b, Location loc, Type type, const APFloat &v) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  TypedAttr scalar = b.getFloatAttr(element, v);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector,
                                                                    scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate p, Value x,
           Value y) {
  return arith::CmpFOp::create(b, loc, p, x, y);
}

//===----------------------------------------------------------------------===//
// index -> arith (SPIR-V): one set of patterns for both dialects' integers,
// Kiln's own where upstream's are wrong.
//===----------------------------------------------------------------------===//

template <typename IndexOp, typename ArithOp>
struct IndexBinaryToArith : OpRewritePattern<IndexOp> {
  using OpRewritePattern<IndexOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ArithOp>(op, op.getLhs(), op.getRhs());
    return success();
  }
};

struct IndexCmpToArith : OpRewritePattern<index::CmpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(index::CmpOp op,
                                PatternRewriter &rewriter) const override {
    // Both enums list eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge.
    auto predicate = static_cast<arith::CmpIPredicate>(op.getPred());
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, predicate, op.getLhs(),
                                               op.getRhs());
    return success();
  }
};

struct IndexConstantToArith : OpRewritePattern<index::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(index::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        op, op.getValue().getSExtValue());
    return success();
  }
};

struct IndexBoolConstantToArith : OpRewritePattern<index::BoolConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(index::BoolConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(op, op.getValue(), 1);
    return success();
  }
};

template <typename IndexOp, typename ArithOp>
struct IndexCastToArith : OpRewritePattern<IndexOp> {
  using OpRewritePattern<IndexOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ArithOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// index.sizeof: the width of index in the kernel (`indexBits`).
struct IndexSizeOfToConstant : OpRewritePattern<index::SizeOfOp> {
  IndexSizeOfToConstant(MLIRContext *ctx, unsigned indexBits)
      : OpRewritePattern(ctx), indexBits(indexBits) {}
  LogicalResult matchAndRewrite(index::SizeOfOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, indexBits);
    return success();
  }
  unsigned indexBits;
};

void populateIndexToArith(RewritePatternSet &p, unsigned indexBits) {
  MLIRContext *ctx = p.getContext();
  p.add<IndexBinaryToArith<index::AddOp, arith::AddIOp>,
        IndexBinaryToArith<index::SubOp, arith::SubIOp>,
        IndexBinaryToArith<index::MulOp, arith::MulIOp>,
        IndexBinaryToArith<index::DivSOp, arith::DivSIOp>,
        IndexBinaryToArith<index::DivUOp, arith::DivUIOp>,
        IndexBinaryToArith<index::RemSOp, arith::RemSIOp>,
        IndexBinaryToArith<index::RemUOp, arith::RemUIOp>,
        IndexBinaryToArith<index::CeilDivSOp, arith::CeilDivSIOp>,
        IndexBinaryToArith<index::CeilDivUOp, arith::CeilDivUIOp>,
        IndexBinaryToArith<index::FloorDivSOp, arith::FloorDivSIOp>,
        IndexBinaryToArith<index::MaxSOp, arith::MaxSIOp>,
        IndexBinaryToArith<index::MaxUOp, arith::MaxUIOp>,
        IndexBinaryToArith<index::MinSOp, arith::MinSIOp>,
        IndexBinaryToArith<index::MinUOp, arith::MinUIOp>,
        IndexBinaryToArith<index::ShlOp, arith::ShLIOp>,
        IndexBinaryToArith<index::ShrSOp, arith::ShRSIOp>,
        IndexBinaryToArith<index::ShrUOp, arith::ShRUIOp>,
        IndexBinaryToArith<index::AndOp, arith::AndIOp>,
        IndexBinaryToArith<index::OrOp, arith::OrIOp>,
        IndexBinaryToArith<index::XOrOp, arith::XOrIOp>,
        IndexCastToArith<index::CastSOp, arith::IndexCastOp>,
        IndexCastToArith<index::CastUOp, arith::IndexCastUIOp>,
        IndexCmpToArith, IndexConstantToArith, IndexBoolConstantToArith>(ctx);
  p.add<IndexSizeOfToConstant>(ctx, indexBits);
}

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

/// arith.cmpf false / true: constants (SPIR-V has no such comparison).
struct ConstantFloatCompare : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpFOp op,
                                PatternRewriter &rewriter) const override {
    auto p = op.getPredicate();
    if (p != arith::CmpFPredicate::AlwaysFalse &&
        p != arith::CmpFPredicate::AlwaysTrue)
      return failure();
    rewriter.replaceOp(op, constantLike(rewriter, op.getLoc(), op.getType(),
                                        p == arith::CmpFPredicate::AlwaysTrue
                                            ? 1
                                            : 0));
    return success();
  }
};

/// arith.cmpi of i1 with an ordering: SPIR-V compares booleans only for
/// equality. Compare them as i32 (true is -1 signed, 1 unsigned).
struct OrderedBoolCompare : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpIOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getLhs().getType();
    if (!getElementTypeOrSelf(type).isInteger(1))
      return failure();
    auto p = op.getPredicate();
    if (p == arith::CmpIPredicate::eq || p == arith::CmpIPredicate::ne)
      return failure();
    bool isSigned = p == arith::CmpIPredicate::slt ||
                    p == arith::CmpIPredicate::sle ||
                    p == arith::CmpIPredicate::sgt ||
                    p == arith::CmpIPredicate::sge;
    Type i32 = rewriter.getI32Type();
    Type wide = isa<VectorType>(type) ? cast<VectorType>(type).clone(i32)
                                      : i32;
    Location loc = op.getLoc();
    auto extend = [&](Value v) -> Value {
      if (isSigned)
        return arith::ExtSIOp::create(rewriter, loc, wide, v);
      return arith::ExtUIOp::create(rewriter, loc, wide, v);
    };
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, p, extend(op.getLhs()),
                                               extend(op.getRhs()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// math
//===----------------------------------------------------------------------===//

/// math.isnormal: finite and at least the smallest normal in magnitude.
struct ExpandIsNormal : OpRewritePattern<math::IsNormalOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IsNormalOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type type = x.getType();
    auto element = cast<FloatType>(getElementTypeOrSelf(type));
    const llvm::fltSemantics &sem = element.getFloatSemantics();
    Value abs = math::AbsFOp::create(rewriter, loc, x);
    Value smallest =
        floatBits(rewriter, loc, type, APFloat::getSmallestNormalized(sem));
    Value inf = floatBits(rewriter, loc, type, APFloat::getInf(sem));
    Value big = cmpf(rewriter, loc, arith::CmpFPredicate::OGE, abs, smallest);
    Value finite = cmpf(rewriter, loc, arith::CmpFPredicate::OLT, abs, inf);
    rewriter.replaceOpWithNewOp<arith::AndIOp>(op, big, finite);
    return success();
  }
};

/// math.isfinite: |x| < inf (false for NaN). Upstream's SPIR-V lowering is
/// OpIsFinite, which Vulkan's Shader capability does not have.
struct ExpandIsFinite : OpRewritePattern<math::IsFiniteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IsFiniteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    auto element = cast<FloatType>(getElementTypeOrSelf(x.getType()));
    Value abs = math::AbsFOp::create(rewriter, loc, x);
    Value inf = floatBits(rewriter, loc, x.getType(),
                          APFloat::getInf(element.getFloatSemantics()));
    rewriter.replaceOp(op,
                       cmpf(rewriter, loc, arith::CmpFPredicate::OLT, abs, inf));
    return success();
  }
};

/// math.isinf: |x| == inf; math.isnan: x unordered with itself (the host:
/// MLIR 22's LLVM lowering has neither).
struct ExpandIsInf : OpRewritePattern<math::IsInfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IsInfOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    auto element = cast<FloatType>(getElementTypeOrSelf(x.getType()));
    Value inf = floatBits(rewriter, loc, x.getType(),
                          APFloat::getInf(element.getFloatSemantics()));
    rewriter.replaceOp(op, cmpf(rewriter, loc, arith::CmpFPredicate::OEQ,
                                math::AbsFOp::create(rewriter, loc, x), inf));
    return success();
  }
};

struct ExpandIsNaN : OpRewritePattern<math::IsNaNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IsNaNOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    rewriter.replaceOp(
        op, cmpf(rewriter, op.getLoc(), arith::CmpFPredicate::UNO, x, x));
    return success();
  }
};

/// math.sincos: a sin and a cos.
struct ExpandSinCos : OpRewritePattern<math::SincosOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SincosOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value sin = math::SinOp::create(rewriter, loc, op.getOperand(),
                                    op.getFastmathAttr());
    Value cos = math::CosOp::create(rewriter, loc, op.getOperand(),
                                    op.getFastmathAttr());
    rewriter.replaceOp(op, {sin, cos});
    return success();
  }
};

/// math.round (halfway cases away from zero): GLSL's Round leaves their
/// direction to the implementation. t = trunc(x); t + sign(x) where
/// |x - t| >= 0.5, keeping the sign of a zero.
struct ExpandRound : OpRewritePattern<math::RoundOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RoundOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type type = x.getType();
    Value t = math::TruncOp::create(rewriter, loc, x);
    Value diff = math::AbsFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, x, t));
    Value half = constantLike(rewriter, loc, type, 0.5);
    Value one = constantLike(rewriter, loc, type, 1.0);
    Value away = math::CopySignOp::create(rewriter, loc, one, x);
    Value bumped = arith::AddFOp::create(rewriter, loc, t, away);
    Value up = cmpf(rewriter, loc, arith::CmpFPredicate::OGE, diff, half);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, up, bumped, t);
    return success();
  }
};

/// math.powf with C's meaning for the cases GLSL's Pow leaves undefined (a
/// negative base, a zero base): pow(|x|, y), negated for a negative base
/// and an odd integer exponent, NaN for a negative base and a non-integer
/// one; pow(±0, y) is ±0 or 0 for y > 0, +inf (±inf for odd y) for y < 0,
/// and 1 for y = 0. The rewritten powf carries kKilnPowAttr so that it is
/// not rewritten again; the conversion lowers it to GLSL's Pow.
constexpr StringLiteral kKilnPowAttr = "kiln_positive_base";

struct ExpandPowF : OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    if (op->hasAttr(kKilnPowAttr))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getLhs(), y = op.getRhs();
    Type type = x.getType();
    auto element = cast<FloatType>(getElementTypeOrSelf(type));
    const llvm::fltSemantics &sem = element.getFloatSemantics();
    Value zero = constantLike(rewriter, loc, type, 0.0);
    Value one = constantLike(rewriter, loc, type, 1.0);
    Value two = constantLike(rewriter, loc, type, 2.0);
    Value nan = floatBits(rewriter, loc, type, APFloat::getNaN(sem));
    Value inf = floatBits(rewriter, loc, type, APFloat::getInf(sem));
    Value ax = math::AbsFOp::create(rewriter, loc, x);
    auto pow = math::PowFOp::create(rewriter, loc, ax, y);
    pow->setAttr(kKilnPowAttr, rewriter.getUnitAttr());
    // Whether y is an integer, and an odd one.
    Value yInt = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ,
                      math::TruncOp::create(rewriter, loc, y), y);
    Value halfY = arith::DivFOp::create(rewriter, loc, y, two);
    Value yOdd = arith::AndIOp::create(
        rewriter, loc, yInt,
        cmpf(rewriter, loc, arith::CmpFPredicate::ONE,
             math::TruncOp::create(rewriter, loc, halfY), halfY));
    Value negative = cmpf(rewriter, loc, arith::CmpFPredicate::OLT, x, zero);
    Value isZero = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, x, zero);
    // Negative base.
    Value signed_ = arith::SelectOp::create(
        rewriter, loc, yOdd, arith::NegFOp::create(rewriter, loc, pow), pow);
    Value negResult =
        arith::SelectOp::create(rewriter, loc, yInt, signed_, nan);
    // Zero base: +-0 or +-inf by the sign of y, the sign kept for odd y.
    Value yPos = cmpf(rewriter, loc, arith::CmpFPredicate::OGT, y, zero);
    Value yZero = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, y, zero);
    Value magnitude = arith::SelectOp::create(rewriter, loc, yPos, zero, inf);
    Value zeroSigned = arith::SelectOp::create(
        rewriter, loc, yOdd,
        math::CopySignOp::create(rewriter, loc, magnitude, x), magnitude);
    Value zeroResult =
        arith::SelectOp::create(rewriter, loc, yZero, one, zeroSigned);
    Value result =
        arith::SelectOp::create(rewriter, loc, negative, negResult, pow);
    result = arith::SelectOp::create(rewriter, loc, isZero, zeroResult, result);
    // x^0 = 1 and 1^y = 1, also for NaN.
    Value xOne = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, x, one);
    Value unit = arith::OrIOp::create(rewriter, loc, yZero, xOne);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, unit, one, result);
    return success();
  }
};

/// math.atan2 through atan(y / x) and the quadrant, with C's values for
/// zeros and infinities (MLIR's polynomial approximation gives NaN for
/// atan2(0, 0)).
struct ExpandAtan2 : OpRewritePattern<math::Atan2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Atan2Op op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value y = op.getLhs(), x = op.getRhs();
    Type type = x.getType();
    auto c = [&](double v) { return constantLike(rewriter, loc, type, v); };
    Value zero = c(0.0), pi = c(M_PI), halfPi = c(M_PI / 2),
          quarterPi = c(M_PI / 4), threeQuarterPi = c(3 * M_PI / 4);
    auto select = [&](Value cond, Value a, Value b) -> Value {
      return arith::SelectOp::create(rewriter, loc, cond, a, b);
    };
    auto sign = [&](Value magnitude) -> Value {
      return math::CopySignOp::create(rewriter, loc, magnitude, y);
    };
    Value ratio = arith::DivFOp::create(rewriter, loc, y, x);
    Value r = math::AtanOp::create(rewriter, loc, ratio);
    // x < 0 (or -0): the other half plane.
    Value xBits = math::CopySignOp::create(rewriter, loc, c(1.0), x);
    Value xNegative =
        cmpf(rewriter, loc, arith::CmpFPredicate::OLT, xBits, zero);
    r = select(xNegative,
               arith::AddFOp::create(rewriter, loc, r, sign(pi)), r);
    // y = 0: +-0 or +-pi by the sign of x (also for x = 0).
    Value yZero = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, y, zero);
    r = select(yZero, select(xNegative, sign(pi), sign(zero)), r);
    // x = 0, y != 0: +-pi/2.
    Value xZero = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, x, zero);
    Value yNonZero = arith::XOrIOp::create(
        rewriter, loc, yZero, constantLike(rewriter, loc,
                                           getBoolLike(type, rewriter), 1));
    r = select(arith::AndIOp::create(rewriter, loc, xZero, yNonZero),
               sign(halfPi), r);
    // Both infinite: +-pi/4 or +-3pi/4.
    Value inf = floatBits(
        rewriter, loc, type,
        APFloat::getInf(cast<FloatType>(getElementTypeOrSelf(type))
                            .getFloatSemantics()));
    Value xInf = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ,
                      math::AbsFOp::create(rewriter, loc, x), inf);
    Value yInf = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ,
                      math::AbsFOp::create(rewriter, loc, y), inf);
    Value both = arith::AndIOp::create(rewriter, loc, xInf, yInf);
    r = select(both, select(xNegative, sign(threeQuarterPi), sign(quarterPi)),
               r);
    // The result has the sign of y, also where it is a zero (a driver may
    // lose the sign of atan(-0)).
    rewriter.replaceOp(op, sign(r));
    return success();
  }

  static Type getBoolLike(Type type, OpBuilder &b) {
    if (auto v = dyn_cast<VectorType>(type))
      return v.clone(b.getI1Type());
    return b.getI1Type();
  }
};

/// Marks an op already taken care of by one of the patterns below.
constexpr StringLiteral kKilnEdgesAttr = "kiln_edges_done";

/// math.erf is odd: erf(|x|) with the sign of x, so that erf(-0) = -0 (the
/// polynomial approximation loses it). math.cbrt: x itself at zeros and
/// infinities (the approximation gives NaN for infinities).
template <typename OpT> struct ApproximationEdges : OpRewritePattern<OpT> {
  ApproximationEdges(MLIRContext *ctx)
      : OpRewritePattern<OpT>(ctx, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (op->hasAttr(kKilnEdgesAttr))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type type = x.getType();
    if (std::is_same<OpT, math::ErfOp>::value) {
      Value abs = math::AbsFOp::create(rewriter, loc, x);
      auto inner = OpT::create(rewriter, loc, abs);
      inner->setAttr(kKilnEdgesAttr, rewriter.getUnitAttr());
      rewriter.replaceOpWithNewOp<math::CopySignOp>(op, inner, x);
      return success();
    }
    auto inner = OpT::create(rewriter, loc, x);
    inner->setAttr(kKilnEdgesAttr, rewriter.getUnitAttr());
    Value zero = constantLike(rewriter, loc, type, 0.0);
    Value inf = floatBits(
        rewriter, loc, type,
        APFloat::getInf(cast<FloatType>(getElementTypeOrSelf(type))
                            .getFloatSemantics()));
    Value abs = math::AbsFOp::create(rewriter, loc, x);
    Value edge = arith::OrIOp::create(
        rewriter, loc, cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, x, zero),
        cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, abs, inf));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, edge, x, inner);
    return success();
  }
};

/// GLSL.std.450's functions need not keep the sign of a zero even with
/// SignedZeroInfNanPreserve (lavapipe's atan(-0) is +0). Where the result
/// has the sign of the operand by definition (rounding, and the odd
/// functions that keep their operand's sign: atan, asin, sinh, tanh,
/// asinh, atanh) it gets it back with a copysign; sin and tan keep a zero
/// operand as it is.
template <typename OpT, bool signOfOperand>
struct KeepZeroSign : OpRewritePattern<OpT> {
  KeepZeroSign(MLIRContext *ctx) : OpRewritePattern<OpT>(ctx, /*benefit=*/5) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (op->hasAttr(kKilnEdgesAttr))
      return failure();
    Location loc = op.getLoc();
    Value x = op->getOperand(0);
    Operation *inner = rewriter.clone(*op);
    inner->setAttr(kKilnEdgesAttr, rewriter.getUnitAttr());
    Value r = inner->getResult(0);
    if (signOfOperand) {
      rewriter.replaceOpWithNewOp<math::CopySignOp>(op, r, x);
      return success();
    }
    Value zero = constantLike(rewriter, loc, x.getType(), 0.0);
    Value isZero = cmpf(rewriter, loc, arith::CmpFPredicate::OEQ, x, zero);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isZero, x, r);
    return success();
  }
};

/// Square-and-multiply over the bits of an integer exponent `e` (>= 0):
/// returns base^e, computed with `mul`, starting from `one`.
Value powerLoop(OpBuilder &b, Location loc, Value base, Value e, Value one,
                function_ref<Value(OpBuilder &, Value, Value)> mul) {
  Type eType = e.getType();
  Type vType = base.getType();
  Value zeroE = constantLike(b, loc, eType, 0);
  Value oneE = constantLike(b, loc, eType, 1);
  auto loop = scf::WhileOp::create(b, loc, TypeRange{vType, vType, eType},
                                   ValueRange{one, base, e});
  {
    Block *before = b.createBlock(&loop.getBefore(), {},
                                  {vType, vType, eType}, {loc, loc, loc});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(before);
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       before->getArgument(2), zeroE);
    scf::ConditionOp::create(b, loc, more, before->getArguments());
  }
  {
    Block *after = b.createBlock(&loop.getAfter(), {}, {vType, vType, eType},
                                 {loc, loc, loc});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(after);
    Value acc = after->getArgument(0), sq = after->getArgument(1),
          rest = after->getArgument(2);
    Value bit = arith::AndIOp::create(b, loc, rest, oneE);
    Value odd =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit, zeroE);
    Value times = mul(b, acc, sq);
    Value nextAcc = arith::SelectOp::create(b, loc, odd, times, acc);
    Value nextSq = mul(b, sq, sq);
    Value nextRest = arith::ShRUIOp::create(b, loc, rest, oneE);
    scf::YieldOp::create(b, loc, ValueRange{nextAcc, nextSq, nextRest});
  }
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}

/// math.ipowi: square and multiply; for a negative exponent 1 where the
/// base is 1, +-1 where it is -1, 0 otherwise (as MLIR's own expansion;
/// a zero base with a negative exponent divides by zero there).
struct ExpandIPowI : OpRewritePattern<math::IPowIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IPowIOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<VectorType>(op.getType()))
      return failure(); // Unrolled first.
    Location loc = op.getLoc();
    Value a = op.getLhs(), e = op.getRhs();
    Type type = a.getType();
    Value zero = constantLike(rewriter, loc, type, 0);
    Value one = constantLike(rewriter, loc, type, 1);
    Value minusOne = constantLike(rewriter, loc, type, -1);
    Value negative =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, e, zero);
    // The loop runs on a non-negative exponent only.
    Value loopE = arith::SelectOp::create(rewriter, loc, negative, zero, e);
    Value power = powerLoop(rewriter, loc, a, loopE, one,
                            [&](OpBuilder &b, Value x, Value y) -> Value {
                              return arith::MulIOp::create(b, loc, x, y);
                            });
    Value isOne =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, a, one);
    Value isMinusOne = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, a, minusOne);
    Value eOdd = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(rewriter, loc, e, one), zero);
    Value signOfMinusOne =
        arith::SelectOp::create(rewriter, loc, eOdd, minusOne, one);
    Value small =
        arith::SelectOp::create(rewriter, loc, isMinusOne, signOfMinusOne, zero);
    small = arith::SelectOp::create(rewriter, loc, isOne, one, small);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, negative, small, power);
    return success();
  }
};

/// math.fpowi: square and multiply by |e|, then the reciprocal for e < 0.
struct ExpandFPowI : OpRewritePattern<math::FPowIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FPowIOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<VectorType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    Value a = op.getLhs(), e = op.getRhs();
    Type type = a.getType();
    Type eType = e.getType();
    Value zeroE = constantLike(rewriter, loc, eType, 0);
    Value negative = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::slt, e, zeroE);
    // |e| as an unsigned number: the minimum integer's magnitude too.
    Value magnitude = arith::SelectOp::create(
        rewriter, loc, negative, arith::SubIOp::create(rewriter, loc, zeroE, e),
        e);
    Value one = constantLike(rewriter, loc, type, 1.0);
    Value power = powerLoop(rewriter, loc, a, magnitude, one,
                            [&](OpBuilder &b, Value x, Value y) -> Value {
                              return arith::MulFOp::create(b, loc, x, y);
                            });
    Value inverse = arith::DivFOp::create(rewriter, loc, one, power);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, negative, inverse, power);
    return success();
  }
};

/// math.ctlz, cttz and ctpop of integers other than 32 bits, through 32-bit
/// ones: Vulkan's bit instructions (FindUMsb, FindILsb, BitCount) take 32-bit
/// integers only. Narrower ones are zero-extended (ctlz minus the extra
/// bits, cttz at most the width), 64-bit ones split in halves.
template <typename OpT> struct BitCountTo32 : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto element = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
    if (!element || element.getWidth() == 32 || element.getWidth() > 64)
      return failure();
    unsigned width = element.getWidth();
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto like32 = [&](Type t) -> Type {
      if (auto v = dyn_cast<VectorType>(t))
        return v.clone(i32);
      return i32;
    };
    Type t32 = like32(type);
    Value x = op.getOperand();
    if (width < 32) {
      Value wide = arith::ExtUIOp::create(rewriter, loc, t32, x);
      Value r = OpT::create(rewriter, loc, wide);
      if (std::is_same<OpT, math::CountLeadingZerosOp>::value)
        r = arith::SubIOp::create(rewriter, loc, r,
                                  constantLike(rewriter, loc, t32, 32 - width));
      if (std::is_same<OpT, math::CountTrailingZerosOp>::value)
        r = arith::MinUIOp::create(rewriter, loc, r,
                                   constantLike(rewriter, loc, t32, width));
      rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, r);
      return success();
    }
    // 64 bits: halves.
    Value shift = constantLike(rewriter, loc, type, 32);
    Value lo = arith::TruncIOp::create(rewriter, loc, t32, x);
    Value hi = arith::TruncIOp::create(
        rewriter, loc, t32, arith::ShRUIOp::create(rewriter, loc, x, shift));
    Value r;
    Value c32 = constantLike(rewriter, loc, t32, 32);
    Value zero = constantLike(rewriter, loc, t32, 0);
    if (std::is_same<OpT, math::CtPopOp>::value) {
      r = arith::AddIOp::create(rewriter, loc,
                                OpT::create(rewriter, loc, lo),
                                OpT::create(rewriter, loc, hi));
    } else {
      bool leading = std::is_same<OpT, math::CountLeadingZerosOp>::value;
      // ctlz: the high half's count, or 32 + the low half's where the high
      // half is 0; cttz the other way round.
      Value first = leading ? hi : lo;
      Value second = leading ? lo : hi;
      Value firstZero = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, first, zero);
      Value fromSecond = arith::AddIOp::create(
          rewriter, loc, c32, OpT::create(rewriter, loc, second));
      r = arith::SelectOp::create(rewriter, loc, firstZero, fromSecond,
                                  OpT::create(rewriter, loc, first));
    }
    rewriter.replaceOpWithNewOp<arith::ExtUIOp>(op, type, r);
    return success();
  }
};

/// math.absi: x < 0 ? 0 - x : x (the minimum integer stays itself, as
/// LLVM's abs without the poison flag); GLSL's SAbs takes 32 bits only.
struct ExpandAbsI : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsIOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value zero = constantLike(rewriter, loc, x.getType(), 0);
    Value negative =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, x, zero);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, negative, arith::SubIOp::create(rewriter, loc, zero, x), x);
    return success();
  }
};

/// Unrolls an elementwise op on vectors into its scalars, for expansions
/// written on scalars (ipowi, fpowi).
template <typename OpT> struct UnrollVectorOp : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    auto vector = dyn_cast<VectorType>(op->getResult(0).getType());
    if (!vector || vector.getRank() != 1 || vector.isScalable())
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> elements;
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
      SmallVector<Value> operands;
      for (Value v : op->getOperands())
        operands.push_back(vector::ExtractOp::create(rewriter, loc, v, i));
      OperationState state(loc, op->getName(), operands,
                           TypeRange{vector.getElementType()}, op->getAttrs());
      elements.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vector, elements);
    return success();
  }
};

/// The index into a row-major array of `sizes` of element `indices`, plus
/// `base`.
static Value linearize(OpBuilder &b, Location loc, Value base,
                       ValueRange indices, ArrayRef<OpFoldResult> sizes) {
  Value index = base;
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = int64_t(indices.size()) - 1; d >= 0; --d) {
    Value term = arith::MulIOp::create(b, loc, indices[d], stride);
    index = arith::AddIOp::create(b, loc, index, term);
    if (d > 0)
      stride = arith::MulIOp::create(
          b, loc, stride, getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
  }
  return index;
}

/// gpu.dynamic_shared_memory on SPIR-V, where the workgroup memory of a
/// kernel is typed and its size fixed when the pipeline is created: a
/// workgroup attribution of kDynamicWorkgroupLength elements of the one
/// element type the kernel's memref.views give it, a length the serializer
/// makes a specialization constant and the runtime sets from each launch's
/// dynamic shared memory size. The views' loads, stores and atomics index
/// that array (byte offset / element size + the row-major index); the
/// kernel is marked with the element size.
static LogicalResult lowerDynamicWorkgroupMemory(Operation *root) {
  SmallVector<gpu::GPUFuncOp> functions;
  root->walk([&](gpu::GPUFuncOp fn) { functions.push_back(fn); });
  for (gpu::GPUFuncOp fn : functions) {
    SmallVector<gpu::DynamicSharedMemoryOp> bases;
    fn.walk([&](gpu::DynamicSharedMemoryOp op) { bases.push_back(op); });
    if (bases.empty())
      continue;
    if (!fn.isKernel())
      return bases.front().emitOpError("in device function '")
             << fn.getName() << "'; take it in the kernel and pass it down";
    Type element;
    SmallVector<memref::ViewOp> views;
    // The users of the bases in program order, so that errors name the
    // later of two disagreeing views.
    SmallVector<Operation *> users;
    fn.walk([&](Operation *op) {
      if (llvm::any_of(op->getOperands(), [](Value v) {
            return v.getDefiningOp<gpu::DynamicSharedMemoryOp>();
          }))
        users.push_back(op);
    });
    for (Operation *user : users) {
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view)
        return user->emitOpError("uses gpu.dynamic_shared_memory other "
                                 "than through memref.view; on Kiln's "
                                 "SPIR-V targets dynamic workgroup memory "
                                 "is read and written through views of one "
                                 "element type");
      Type e = view.getType().getElementType();
      if (!e.isIntOrFloat() || e.getIntOrFloatBitWidth() % 8 ||
          e.getIntOrFloatBitWidth() > 64)
        return view.emitOpError("views dynamic workgroup memory as ")
               << e
               << "; on Kiln's SPIR-V targets its elements are "
                  "8- to 64-bit integers or floats";
      if (element && e != element)
        return view.emitOpError("views dynamic workgroup memory as ")
               << e << " where another view of the kernel has " << element
               << "; SPIR-V's logical addressing cannot read memory as "
                  "another type, so on Kiln's SPIR-V targets a kernel's "
                  "dynamic workgroup memory has one element type";
      element = e;
      views.push_back(view);
    }
    if (!element) {
      for (gpu::DynamicSharedMemoryOp base : bases)
        base.erase();
      continue;
    }
    MLIRContext *ctx = fn.getContext();
    int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    auto type = MemRefType::get(
        {int64_t(kiln::container::kDynamicWorkgroupLength)}, element,
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    BlockArgument memory = fn.addWorkgroupAttribution(type, fn.getLoc());
    fn->setAttr("kiln_dynamic_workgroup_element_bytes",
                IntegerAttr::get(IntegerType::get(ctx, 32), bytes));
    for (memref::ViewOp view : views) {
      Location loc = view.getLoc();
      OpBuilder b(view);
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (shift && *shift % bytes)
        return view.emitOpError("views dynamic workgroup memory at byte ")
               << *shift << ", not a multiple of its " << bytes
               << "-byte elements";
      Value base =
          arith::DivUIOp::create(b, loc, view.getByteShift(),
                                 arith::ConstantIndexOp::create(b, loc, bytes));
      MemRefType viewType = view.getType();
      SmallVector<OpFoldResult> sizes;
      unsigned dynamic = 0;
      for (int64_t size : viewType.getShape())
        sizes.push_back(ShapedType::isDynamic(size)
                            ? OpFoldResult(view.getSizes()[dynamic++])
                            : OpFoldResult(b.getIndexAttr(size)));
      for (Operation *user : llvm::make_early_inc_range(view->getUsers())) {
        OpBuilder ub(user);
        Location at = user->getLoc();
        auto index = [&](ValueRange indices) -> Value {
          return linearize(ub, at, base, indices, sizes);
        };
        if (auto load = dyn_cast<memref::LoadOp>(user)) {
          load.replaceAllUsesWith(
              memref::LoadOp::create(ub, at, memory, index(load.getIndices()))
                  .getResult());
          load.erase();
        } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
          memref::StoreOp::create(ub, at, store.getValueToStore(), memory,
                                  index(store.getIndices()));
          store.erase();
        } else if (auto rmw = dyn_cast<memref::AtomicRMWOp>(user)) {
          rmw.replaceAllUsesWith(
              memref::AtomicRMWOp::create(ub, at, rmw.getKind(), rmw.getValue(),
                                          memory, index(rmw.getIndices()))
                  .getResult());
          rmw.erase();
        } else if (auto generic = dyn_cast<memref::GenericAtomicRMWOp>(user)) {
          Value i = index(generic.getIndices());
          generic.getMemrefMutable().assign(memory);
          generic.getIndicesMutable().assign(ValueRange{i});
        } else if (auto dim = dyn_cast<memref::DimOp>(user)) {
          std::optional<int64_t> d = dim.getConstantIndex();
          if (!d || *d >= int64_t(sizes.size()))
            return dim.emitOpError("of a dynamic workgroup memory view with "
                                   "a dimension that is not a constant");
          dim.replaceAllUsesWith(
              getValueOrCreateConstantIndexOp(ub, at, sizes[*d]));
          dim.erase();
        } else {
          return user->emitOpError("uses a view of dynamic workgroup memory; "
                                   "on Kiln's SPIR-V targets such views are "
                                   "loaded, stored and updated atomically "
                                   "(memref.load, memref.store, "
                                   "memref.atomic_rmw, "
                                   "memref.generic_atomic_rmw)");
        }
      }
      view.erase();
    }
    for (gpu::DynamicSharedMemoryOp base : bases)
      base.erase();
  }
  return success();
}

/// memref.alloca without a memory space in a kernel is the invocation's
/// private memory: on SPIR-V a Function variable, which the conversion makes
/// of memrefs in #gpu.address_space<private>. The alloca and every view of
/// it (subview, cast, reshape, ...) get that memory space.
void assignPrivateMemorySpace(Operation *root) {
  MLIRContext *ctx = root->getContext();
  auto privateSpace =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private);
  auto retype = [&](Value v) -> bool {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || type.getMemorySpace())
      return false;
    v.setType(MemRefType::get(type.getShape(), type.getElementType(),
                              type.getLayout(), privateSpace));
    return true;
  };
  SmallVector<Value> worklist;
  root->walk([&](memref::AllocaOp op) {
    if (retype(op.getResult()))
      worklist.push_back(op.getResult());
  });
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      bool isView = (view && view.getViewSource() == v) ||
                    isa<memref::TransposeOp, memref::CastOp>(user);
      if (!isView)
        continue;
      for (Value result : user->getResults())
        if (retype(result))
          worklist.push_back(result);
    }
  }
}

/// vector.reduction <minimumf / maximumf> as a chain of arith.minimumf /
/// maximumf, which propagate NaN (SPIR-V's lowering is a chain of GLSL's
/// FMin / FMax, which do not).
struct ReductionOfNaNPropagatingMinMax : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ReductionOp op,
                                PatternRewriter &rewriter) const override {
    auto kind = op.getKind();
    if (kind != vector::CombiningKind::MINIMUMF &&
        kind != vector::CombiningKind::MAXIMUMF)
      return failure();
    VectorType type = op.getSourceVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return failure();
    Location loc = op.getLoc();
    Value acc = op.getAcc();
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      Value element = vector::ExtractOp::create(rewriter, loc,
                                                op.getVector(), i);
      if (!acc) {
        acc = element;
        continue;
      }
      acc = kind == vector::CombiningKind::MINIMUMF
                ? arith::MinimumFOp::create(rewriter, loc, acc, element)
                      .getResult()
                : arith::MaximumFOp::create(rewriter, loc, acc, element)
                      .getResult();
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// Element `k` of the 1-D vector memory op `op` at `base` + `k` in the
/// innermost dimension of its memref: the indices of that element.
static SmallVector<Value> elementIndices(OpBuilder &b, Location loc,
                                         ValueRange indices, Value offset) {
  SmallVector<Value> at(indices.begin(), indices.end());
  at.back() = arith::AddIOp::create(b, loc, at.back(), offset);
  return at;
}

/// Builds `if (cond) { then(); }` at `b`.
static void ifThen(OpBuilder &b, Location loc, Value cond,
                   function_ref<void(OpBuilder &)> then) {
  auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder inner = op.getThenBodyBuilder();
  then(inner);
}

/// Builds `cond ? then() : other` of `type` at `b`.
static Value ifThenElse(OpBuilder &b, Location loc, Value cond, Type type,
                        function_ref<Value(OpBuilder &)> then, Value other) {
  auto op = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                              /*withElseRegion=*/true);
  OpBuilder t = op.getThenBodyBuilder();
  scf::YieldOp::create(t, loc, then(t));
  OpBuilder e = op.getElseBodyBuilder();
  scf::YieldOp::create(e, loc, other);
  return op.getResult(0);
}

/// 1-D vector.transfer_read / transfer_write on a memref that may leave it
/// (or has a mask): element by element, each guarded by its bound and mask
/// bit; a read gives the padding value where it does not load. (MLIR's
/// vector-to-scf lowers minor-identity 1-D transfers only to themselves.)
template <typename OpT>
static LogicalResult
forEachTransferElement(OpT op, PatternRewriter &rewriter,
                       function_ref<void(int64_t, ValueRange, Value)> element) {
  VectorType type = op.getVectorType();
  auto memref = dyn_cast<MemRefType>(op.getBase().getType());
  if (!memref || type.getRank() != 1 || type.isScalable() ||
      !op.getPermutationMap().isMinorIdentity() ||
      (op.getInBoundsValues()[0] && !op.getMask()))
    return failure();
  Location loc = op.getLoc();
  Value dim = memref::DimOp::create(rewriter, loc, op.getBase(),
                                    memref.getRank() - 1);
  for (int64_t k = 0, e = type.getNumElements(); k < e; ++k) {
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, k);
    SmallVector<Value> at =
        elementIndices(rewriter, loc, op.getIndices(), offset);
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, at.back(),
                                         dim);
    if (Value mask = op.getMask())
      inside = arith::AndIOp::create(
          rewriter, loc, inside,
          vector::ExtractOp::create(rewriter, loc, mask, k));
    element(k, at, inside);
  }
  return success();
}

struct TransferReadByElement : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value result;
    auto read = [&](int64_t k, ValueRange at, Value inside) {
      if (!result)
        result = vector::BroadcastOp::create(rewriter, loc, op.getVectorType(),
                                             op.getPadding());
      Value element = ifThenElse(
          rewriter, loc, inside, op.getVectorType().getElementType(),
          [&](OpBuilder &b) -> Value {
            return memref::LoadOp::create(b, loc, op.getBase(), at);
          },
          op.getPadding());
      result = vector::InsertOp::create(rewriter, loc, element, result, k);
    };
    if (failed(forEachTransferElement(op, rewriter, read)))
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TransferWriteByElement : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto write = [&](int64_t k, ValueRange at, Value inside) {
      Value element =
          vector::ExtractOp::create(rewriter, loc, op.getVector(), k);
      ifThen(rewriter, loc, inside, [&](OpBuilder &b) {
        memref::StoreOp::create(b, loc, element, op.getBase(), at);
      });
    };
    if (failed(forEachTransferElement(op, rewriter, write)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// vector.scatter, expandload and compressstore of 1-D vectors, element by
/// element: scatter to base + index[k] where mask[k]; expandload and
/// compressstore through a running position that moves past each set bit.
struct ScatterByElement : OpRewritePattern<vector::ScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ScatterOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable() ||
        !isa<MemRefType>(op.getBase().getType()))
      return failure();
    Location loc = op.getLoc();
    for (int64_t k = 0, e = type.getNumElements(); k < e; ++k) {
      Value index = vector::ExtractOp::create(rewriter, loc,
                                              op.getIndices(), k);
      Value offset = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), index);
      SmallVector<Value> at =
          elementIndices(rewriter, loc, op.getOffsets(), offset);
      Value bit = vector::ExtractOp::create(rewriter, loc, op.getMask(), k);
      Value element =
          vector::ExtractOp::create(rewriter, loc, op.getValueToStore(), k);
      ifThen(rewriter, loc, bit, [&](OpBuilder &b) {
        memref::StoreOp::create(b, loc, element, op.getBase(), at);
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ExpandLoadByElement : OpRewritePattern<vector::ExpandLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ExpandLoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return failure();
    Location loc = op.getLoc();
    Value position = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value result = op.getPassThru();
    for (int64_t k = 0, e = type.getNumElements(); k < e; ++k) {
      Value bit = vector::ExtractOp::create(rewriter, loc, op.getMask(), k);
      SmallVector<Value> at =
          elementIndices(rewriter, loc, op.getIndices(), position);
      Value pass = vector::ExtractOp::create(rewriter, loc, op.getPassThru(), k);
      Value element = ifThenElse(
          rewriter, loc, bit, type.getElementType(),
          [&](OpBuilder &b) -> Value {
            return memref::LoadOp::create(b, loc, op.getBase(), at);
          },
          pass);
      result = vector::InsertOp::create(rewriter, loc, element, result, k);
      Value step = arith::SelectOp::create(
          rewriter, loc, bit, one, arith::ConstantIndexOp::create(rewriter, loc, 0));
      position = arith::AddIOp::create(rewriter, loc, position, step);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CompressStoreByElement : OpRewritePattern<vector::CompressStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::CompressStoreOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return failure();
    Location loc = op.getLoc();
    Value position = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (int64_t k = 0, e = type.getNumElements(); k < e; ++k) {
      Value bit = vector::ExtractOp::create(rewriter, loc, op.getMask(), k);
      SmallVector<Value> at =
          elementIndices(rewriter, loc, op.getIndices(), position);
      Value element =
          vector::ExtractOp::create(rewriter, loc, op.getValueToStore(), k);
      ifThen(rewriter, loc, bit, [&](OpBuilder &b) {
        memref::StoreOp::create(b, loc, element, op.getBase(), at);
      });
      Value step = arith::SelectOp::create(rewriter, loc, bit, one, zero);
      position = arith::AddIOp::create(rewriter, loc, position, step);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Loads and stores through vector.type_cast (a memref of scalars seen as a
/// memref of one vector) as vector.load / vector.store of the scalars.
struct LoadThroughTypeCast : OpRewritePattern<memref::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::LoadOp op,
                                PatternRewriter &rewriter) const override {
    auto cast = op.getMemRef().getDefiningOp<vector::TypeCastOp>();
    if (!cast || !op.getIndices().empty())
      return failure();
    auto vector = dyn_cast<VectorType>(op.getType());
    if (!vector || vector.getRank() != 1)
      return failure();
    Value zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
    SmallVector<Value> at(cast.getMemref().getType().getRank(), zero);
    rewriter.replaceOpWithNewOp<vector::LoadOp>(op, vector, cast.getMemref(),
                                                at);
    return success();
  }
};

struct StoreThroughTypeCast : OpRewritePattern<memref::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::StoreOp op,
                                PatternRewriter &rewriter) const override {
    auto cast = op.getMemRef().getDefiningOp<vector::TypeCastOp>();
    if (!cast || !op.getIndices().empty())
      return failure();
    auto vector = dyn_cast<VectorType>(op.getValueToStore().getType());
    if (!vector || vector.getRank() != 1)
      return failure();
    Value zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
    SmallVector<Value> at(cast.getMemref().getType().getRank(), zero);
    rewriter.replaceOpWithNewOp<vector::StoreOp>(op, op.getValueToStore(),
                                                 cast.getMemref(), at);
    return success();
  }
};

/// complex.re / im of a select of complex numbers: the select of their
/// parts (complex-to-standard selects between complex numbers, which SPIR-V
/// cannot hold; the parts fold into the creates).
template <typename PartOp> struct PartOfSelect : OpRewritePattern<PartOp> {
  using OpRewritePattern<PartOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(PartOp op,
                                PatternRewriter &rewriter) const override {
    auto select = op.getComplex().template getDefiningOp<arith::SelectOp>();
    if (!select)
      return failure();
    Location loc = op.getLoc();
    Value t = PartOp::create(rewriter, loc, select.getTrueValue());
    Value f = PartOp::create(rewriter, loc, select.getFalseValue());
    rewriter.template replaceOpWithNewOp<arith::SelectOp>(
        op, select.getCondition(), t, f);
    return success();
  }
};

/// vector.reduction <and>, <or>, <xor> (which MLIR 22's SPIR-V patterns
/// lack): the elements combined in order, with the accumulator first.
struct BitwiseReductionToScalars : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ReductionOp op,
                                PatternRewriter &rewriter) const override {
    using K = vector::CombiningKind;
    K kind = op.getKind();
    if (kind != K::AND && kind != K::OR && kind != K::XOR)
      return failure();
    VectorType type = op.getSourceVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return failure();
    Location loc = op.getLoc();
    Value result = op.getAcc();
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      Value element = vector::ExtractOp::create(rewriter, loc, op.getVector(),
                                                ArrayRef<int64_t>{i});
      if (!result) {
        result = element;
        continue;
      }
      if (kind == K::AND)
        result = arith::AndIOp::create(rewriter, loc, result, element);
      else if (kind == K::OR)
        result = arith::OrIOp::create(rewriter, loc, result, element);
      else
        result = arith::XOrIOp::create(rewriter, loc, result, element);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// complex.bitcast between complex<fN> and a 2N-bit scalar (which upstream's
/// complex-to-standard leaves alone): the parts as a 2-element vector,
/// bitcast as one; the real part is the low half, as in memory.
struct ComplexBitcast : OpConversionPattern<complex::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(complex::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type from = op.getOperand().getType(), to = op.getType();
    if (auto complexType = dyn_cast<ComplexType>(from)) {
      if (isa<ComplexType>(to))
        return failure();
      Type part = complexType.getElementType();
      Value re = complex::ReOp::create(rewriter, loc, adaptor.getOperand());
      Value im = complex::ImOp::create(rewriter, loc, adaptor.getOperand());
      Value parts = vector::FromElementsOp::create(
          rewriter, loc, VectorType::get({2}, part), ValueRange{re, im});
      Value whole = vector::BitCastOp::create(rewriter, loc,
                                              VectorType::get({1}, to), parts);
      rewriter.replaceOpWithNewOp<vector::ExtractOp>(op, whole,
                                                     ArrayRef<int64_t>{0});
      return success();
    }
    auto complexType = dyn_cast<ComplexType>(to);
    if (!complexType)
      return failure();
    Type part = complexType.getElementType();
    Value whole = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({1}, from), ValueRange{op.getOperand()});
    Value parts = vector::BitCastOp::create(rewriter, loc,
                                            VectorType::get({2}, part), whole);
    Value re =
        vector::ExtractOp::create(rewriter, loc, parts, ArrayRef<int64_t>{0});
    Value im =
        vector::ExtractOp::create(rewriter, loc, parts, ArrayRef<int64_t>{1});
    rewriter.replaceOpWithNewOp<complex::CreateOp>(op, complexType, re, im);
    return success();
  }
};

/// gpu.subgroup_reduce over clusters, where the target env has no
/// GroupNonUniformClustered (or the stride is not 1): a butterfly of
/// gpu.shuffle xor over the whole subgroup, by stride * 2^j for each j below
/// log2(size), combining as the reduction does.
struct ClusteredReduceToShuffles : OpRewritePattern<gpu::SubgroupReduceOp> {
  ClusteredReduceToShuffles(MLIRContext *ctx, bool hasClustered)
      : OpRewritePattern(ctx), hasClustered(hasClustered) {}
  LogicalResult matchAndRewrite(gpu::SubgroupReduceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<uint32_t> size = op.getClusterSize();
    if (!size)
      return failure();
    uint32_t stride = op.getClusterStride();
    if (hasClustered && stride == 1)
      return failure();
    if (!op.getType().isIntOrFloat())
      return failure();
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value width = arith::IndexCastOp::create(
        rewriter, loc, i32,
        gpu::SubgroupSizeOp::create(rewriter, loc, IntegerAttr()));
    vector::CombiningKind kind = gpu::convertReductionKind(op.getOp());
    Value v = op.getValue();
    for (uint32_t step = stride; step < stride * *size; step *= 2) {
      Value offset = arith::ConstantIntOp::create(rewriter, loc, i32, step);
      auto other = gpu::ShuffleOp::create(rewriter, loc, v, offset, width,
                                          gpu::ShuffleMode::XOR);
      v = vector::makeArithReduction(rewriter, loc, kind, v,
                                     other.getShuffleResult());
    }
    rewriter.replaceOp(op, v);
    return success();
  }
  bool hasClustered;
};

//===----------------------------------------------------------------------===//
// memref
//===----------------------------------------------------------------------===//

/// memref.alloca_scope: its body inline (the kernel is the scope of its
/// private memory).
struct InlineAllocaScope : OpRewritePattern<memref::AllocaScopeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::AllocaScopeOp op,
                                PatternRewriter &rewriter) const override {
    Block *body = &op.getBodyRegion().front();
    auto ret = cast<memref::AllocaScopeReturnOp>(body->getTerminator());
    SmallVector<Value> results(ret.getResults());
    rewriter.eraseOp(ret);
    rewriter.inlineBlockBefore(body, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Ops that promise something and do nothing: assume_alignment and
/// distinct_objects give their operands, prefetch goes (SPIR-V has neither
/// promises nor prefetches).
struct DropMemRefHints : RewritePattern {
  DropMemRefHints(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (auto a = dyn_cast<memref::AssumeAlignmentOp>(op)) {
      rewriter.replaceOp(op, a.getMemref());
      return success();
    }
    if (isa<memref::DistinctObjectsOp>(op)) {
      rewriter.replaceOp(op, op->getOperands());
      return success();
    }
    if (isa<memref::PrefetchOp>(op)) {
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};

/// memref.rank of a cast of a ranked memref: its rank.
struct RankThroughCast : OpRewritePattern<memref::RankOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::RankOp op,
                                PatternRewriter &rewriter) const override {
    auto cast = op.getMemref().getDefiningOp<memref::CastOp>();
    if (!cast)
      return failure();
    auto ranked = dyn_cast<MemRefType>(cast.getSource().getType());
    if (!ranked)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, ranked.getRank());
    return success();
  }
};

/// memref.copy between memrefs of one static shape: a loop nest of loads
/// and stores (the LLVM lowering calls a host library function, and SPIR-V
/// has none).
struct CopyToLoops : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto from = dyn_cast<MemRefType>(op.getSource().getType());
    auto to = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!from || !to || !from.hasStaticShape() ||
        from.getShape() != to.getShape())
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d : from.getShape()) {
      lbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, d));
      steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
    }
    scf::buildLoopNest(rewriter, loc, lbs, ubs, steps,
                       [&](OpBuilder &b, Location l, ValueRange ivs) {
                         Value v =
                             memref::LoadOp::create(b, l, op.getSource(), ivs);
                         memref::StoreOp::create(b, l, v, op.getTarget(), ivs);
                       });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Accesses through memref.reinterpret_cast of a memref with an identity
/// layout (SPIR-V): the same element of a 1-D view of the source, at the
/// offset plus the indices times the strides.
template <typename OpT>
struct AccessThroughReinterpretCast : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    auto cast =
        op.getMemRef().template getDefiningOp<memref::ReinterpretCastOp>();
    if (!cast)
      return failure();
    auto source = dyn_cast<MemRefType>(cast.getSource().getType());
    if (!source || !source.getLayout().isIdentity() || !source.hasStaticShape())
      return failure();
    Location loc = op.getLoc();
    Value flat = cast.getSource();
    if (source.getRank() != 1) {
      SmallVector<ReassociationIndices> all(1);
      for (int64_t d = 0; d < source.getRank(); ++d)
        all[0].push_back(d);
      flat = memref::CollapseShapeOp::create(rewriter, loc, flat, all);
    }
    Value linear = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                   cast.getMixedOffsets()[0]);
    for (auto [index, stride] :
         llvm::zip(op.getIndices(), cast.getMixedStrides())) {
      Value s = getValueOrCreateConstantIndexOp(rewriter, loc, stride);
      linear =
          arith::AddIOp::create(rewriter, loc, linear,
                                arith::MulIOp::create(rewriter, loc, index, s));
    }
    if constexpr (std::is_same<OpT, memref::LoadOp>::value)
      rewriter.template replaceOpWithNewOp<memref::LoadOp>(op, flat,
                                                           ValueRange{linear});
    else
      rewriter.template replaceOpWithNewOp<memref::StoreOp>(
          op, op.getValueToStore(), flat, ValueRange{linear});
    return success();
  }
};

/// Loads and stores through memref.transpose: the source's element at the
/// permuted indices (SPIR-V has no strided views of private memory).
template <typename OpT> struct AccessThroughTranspose : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    auto transpose =
        op.getMemRef().template getDefiningOp<memref::TransposeOp>();
    if (!transpose)
      return failure();
    AffineMap perm = transpose.getPermutation();
    SmallVector<Value> at(perm.getNumResults());
    for (unsigned i = 0, e = perm.getNumResults(); i < e; ++i)
      at[perm.getDimPosition(i)] = op.getIndices()[i];
    if constexpr (std::is_same<OpT, memref::LoadOp>::value)
      rewriter.template replaceOpWithNewOp<memref::LoadOp>(
          op, transpose.getIn(), at);
    else
      rewriter.template replaceOpWithNewOp<memref::StoreOp>(
          op, op.getValueToStore(), transpose.getIn(), at);
    return success();
  }
};

/// memref.get_global of a constant global (what bufferization makes of a
/// constant tensor) on SPIR-V: a private array initialized from the
/// constant (kKilnInitialValueAttr; the conversion makes it a Function
/// variable with an initializer).
constexpr StringLiteral kKilnInitialValueAttr = "kiln_initial_value";

struct ConstantGlobalToPrivate : OpRewritePattern<memref::GetGlobalOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::GetGlobalOp op,
                                PatternRewriter &rewriter) const override {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        op, op.getNameAttr());
    if (!global || !global.getConstant())
      return failure();
    auto value =
        dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
    auto type = op.getType();
    if (!value || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace())
      return failure();
    auto alloca = memref::AllocaOp::create(rewriter, op.getLoc(), type);
    alloca->setAttr(kKilnInitialValueAttr, value);
    rewriter.replaceOp(op, alloca.getResult());
    return success();
  }
};

/// memref.atomic_rmw of a kind the target has no instruction for (on
/// SPIR-V: integer muli; on NVVM: muli and mulf): a
/// memref.generic_atomic_rmw computing it, which both lower to a
/// compare-and-swap loop.
struct AtomicRMWToGeneric : OpRewritePattern<memref::AtomicRMWOp> {
  AtomicRMWToGeneric(MLIRContext *ctx, bool spirv)
      : OpRewritePattern(ctx), spirv(spirv) {}
  LogicalResult matchAndRewrite(memref::AtomicRMWOp op,
                                PatternRewriter &rewriter) const override {
    using K = arith::AtomicRMWKind;
    K kind = op.getKind();
    bool floats = isa<FloatType>(op.getValue().getType());
    if (kind != K::muli && !(kind == K::mulf && !spirv))
      return failure();
    if (spirv && floats)
      return failure();
    Location loc = op.getLoc();
    auto generic = memref::GenericAtomicRMWOp::create(
        rewriter, loc, op.getMemref(), op.getIndices());
    OpBuilder body = OpBuilder::atBlockEnd(generic.getBody());
    Value current = generic.getCurrentValue();
    Value next = floats
                     ? arith::MulFOp::create(body, loc, current, op.getValue())
                           .getResult()
                     : arith::MulIOp::create(body, loc, current, op.getValue())
                           .getResult();
    memref::AtomicYieldOp::create(body, loc, next);
    rewriter.replaceOp(op, generic.getResult());
    return success();
  }
  bool spirv;
};

/// scf.parallel as the nest of scf.for one invocation runs, its reductions
/// as loop-carried values combined by their scf.reduce regions in order.
static LogicalResult sequentialParallelLoop(RewriterBase &rewriter,
                                            scf::ParallelOp op) {
  if (op.getNumResults() == 0)
    return scf::parallelForToNestedFors(rewriter, op);
  Location loc = op.getLoc();
  auto reduce = cast<scf::ReduceOp>(op.getBody()->getTerminator());
  SmallVector<scf::ForOp> loops;
  ValueRange carried = op.getInitVals();
  SmallVector<Value> ivs;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  for (auto [lb, ub, step] :
       llvm::zip(op.getLowerBound(), op.getUpperBound(), op.getStep())) {
    auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step, carried);
    if (!loops.empty())
      scf::YieldOp::create(rewriter, loc, loop.getResults());
    loops.push_back(loop);
    ivs.push_back(loop.getInductionVar());
    carried = loop.getRegionIterArgs();
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  // The body, then each reduction: its region on (accumulator, value).
  IRMapping map;
  for (auto [from, to] : llvm::zip(op.getInductionVars(), ivs))
    map.map(from, to);
  for (Operation &inner : op.getBody()->without_terminator())
    rewriter.clone(inner, map);
  SmallVector<Value> next;
  for (auto [k, region] : llvm::enumerate(reduce.getReductions())) {
    Block &block = region.front();
    IRMapping rmap;
    rmap.map(block.getArgument(0), carried[k]);
    rmap.map(block.getArgument(1),
             map.lookupOrDefault(reduce.getOperands()[k]));
    for (Operation &inner : block.without_terminator())
      rewriter.clone(inner, rmap);
    auto ret = cast<scf::ReduceReturnOp>(block.getTerminator());
    next.push_back(rmap.lookupOrDefault(ret.getResult()));
  }
  scf::YieldOp::create(rewriter, loc, next);
  rewriter.replaceOp(op, loops.front().getResults());
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class ExpandKernelOpsPass
    : public kiln::impl::KilnExpandKernelOpsBase<ExpandKernelOpsPass> {
public:
  using Base::Base;

  /// affine ops as arith and scf (lower-affine; their index arithmetic is
  /// then expanded like any other), and scf.parallel / scf.forall in a
  /// kernel as the sequential loops one invocation runs.
  LogicalResult lowerAffineAndParallelLoops(Operation *root) {
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      affine::populateAffineExpandIndexOpsPatterns(patterns);
      populateAffineToStdConversionPatterns(patterns);
      populateAffineToVectorConversionPatterns(patterns);
      ConversionTarget legal(*ctx);
      legal.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      legal.addIllegalDialect<affine::AffineDialect>();
      if (failed(applyPartialConversion(root, legal, std::move(patterns))))
        return failure();
    }
    IRRewriter rewriter(ctx);
    SmallVector<Operation *> loops;
    root->walk([&](Operation *op) {
      if (isa<scf::ParallelOp, scf::ForallOp>(op))
        loops.push_back(op);
    });
    for (Operation *op : loops) {
      rewriter.setInsertionPoint(op);
      if (auto parallel = dyn_cast<scf::ParallelOp>(op)) {
        if (failed(sequentialParallelLoop(rewriter, parallel)))
          return op->emitOpError("could not be made sequential loops");
      } else if (failed(
                     scf::forallToForLoop(rewriter, cast<scf::ForallOp>(op)))) {
        return op->emitOpError("could not be made sequential loops");
      }
    }
    return success();
  }

  /// complex ops -> arith and math (convert-complex-to-standard), on every
  /// target: what remains of complex is complex.create / re / im.
  LogicalResult expandComplex(Operation *root) {
    MLIRContext *ctx = &getContext();
    ConversionTarget legal(*ctx);
    legal.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    legal.addIllegalDialect<complex::ComplexDialect>();
    legal.addLegalOp<complex::CreateOp, complex::ReOp, complex::ImOp,
                     complex::ConstantOp>();
    RewritePatternSet patterns(ctx);
    populateComplexToStandardConversionPatterns(patterns);
    patterns.add<ComplexBitcast>(ctx, /*benefit=*/2);
    return applyPartialConversion(root, legal, std::move(patterns));
  }

  /// The host's functions (not a GPU module's): what MLIR's LLVM lowering
  /// lacks, and the C library for the functions LLVM has no intrinsic for
  /// or computes imprecisely (expm1 and log1p as exp(x) - 1 and
  /// log(1 + x)). Runs on the module, where the library's declarations go.
  LogicalResult expandHostMath() {
    MLIRContext *ctx = &getContext();
    SmallVector<Operation *> functions;
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        for (Operation &op : block)
          if (isa<FunctionOpInterface>(op))
            functions.push_back(&op);
    for (Operation *fn : functions)
      if (failed(expandComplex(fn)))
        return failure();
    {
      RewritePatternSet patterns(ctx);
      patterns.add<ExpandIsNormal, ExpandSinCos, ExpandIsInf, ExpandIsNaN,
                   ExpandIsFinite>(ctx);
      math::populateExpansionPatterns(patterns, {"clampf"});
      arith::populateExpandScalingExtTruncPatterns(patterns);
      arith::populateExpandF8E8M0Patterns(patterns);
      FrozenRewritePatternSet frozen(std::move(patterns));
      for (Operation *fn : functions)
        if (failed(applyPatternsGreedily(fn, frozen)))
          return failure();
    }
    for (Operation *fn : functions)
      if (failed(lowerVectors(fn, /*spirv=*/false)))
        return failure();
    {
      // Atomic kinds the LLVM lowering lacks, memref.reshape with a shape
      // from memory, memref.copy of static shapes.
      RewritePatternSet patterns(ctx);
      patterns.add<AtomicRMWToGeneric>(ctx, /*spirv=*/false);
      memref::populateExpandOpsPatterns(patterns);
      FrozenRewritePatternSet frozen(std::move(patterns));
      for (Operation *fn : functions)
        if (failed(applyPatternsGreedily(fn, frozen)))
          return failure();
    }
    ConversionTarget legal(*ctx);
    legal.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    legal.addIllegalOp<math::ErfOp, math::ErfcOp, math::CbrtOp,
                       math::Atan2Op, math::AtanOp, math::AsinOp,
                       math::AcosOp, math::SinhOp, math::CoshOp,
                       math::TanhOp, math::AsinhOp, math::AcoshOp,
                       math::AtanhOp, math::ExpM1Op, math::Log1pOp,
                       math::TanOp>();
    RewritePatternSet libm(ctx);
    populateMathToLibmConversionPatterns(libm);
    FrozenRewritePatternSet frozen(std::move(libm));
    for (Operation *fn : functions)
      if (failed(applyPartialConversion(fn, legal, frozen)))
        return failure();
    return success();
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    bool spirv = target == "spirv";
    if (!spirv && target != "nvvm" && target != "host") {
      emitError(getOperation()->getLoc(), "kiln-expand-kernel-ops: unknown "
                                          "target '")
          << target << "' (spirv, nvvm or host)";
      return signalPassFailure();
    }
    if (target == "host") {
      if (failed(expandHostMath()))
        return signalPassFailure();
      return;
    }

    if (failed(expandComplex(getOperation())))
      return signalPassFailure();
    if (failed(lowerAffineAndParallelLoops(getOperation())))
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    // Both targets.
    arith::populateExpandScalingExtTruncPatterns(patterns);
    arith::populateExpandF8E8M0Patterns(patterns);
    patterns.add<InlineAllocaScope, RankThroughCast, CopyToLoops>(ctx);
    patterns.add<AtomicRMWToGeneric>(ctx, spirv);
    // memref.reshape with a shape from memory as a reinterpret_cast (NVVM's
    // lowering of a shape of i32 leaves a cast it cannot translate).
    memref::populateExpandOpsPatterns(patterns);
    if (!spirv)
      memref::populateExpandReallocPatterns(patterns);
    patterns.add<ExpandIsNormal, ExpandIPowI, ExpandFPowI,
                 UnrollVectorOp<math::IPowIOp>, UnrollVectorOp<math::FPowIOp>,
                 ExpandSinCos>(ctx);
    math::populateExpansionPatterns(patterns, {"clampf"});
    if (spirv) {
      populateIndexToArith(patterns, indexBits);
      // roundeven with integer and floor arithmetic: lavapipe's RoundEven of
      // a double rounds 1.5 down, and the spirv-cpu target has none.
      math::populateExpansionPatterns(patterns, {"roundeven"});
      arith::populateCeilFloorDivExpandOpsPatterns(patterns);
      patterns.add<PartOfSelect<complex::ReOp>, PartOfSelect<complex::ImOp>>(
          ctx);
      spirv::TargetEnv env(spirv::lookupTargetEnvOrDefault(getOperation()));
      patterns.add<ClusteredReduceToShuffles>(
          ctx, env.allows(spirv::Capability::GroupNonUniformClustered));
      patterns.add<ReductionOfNaNPropagatingMinMax, DropMemRefHints,
                   ConstantGlobalToPrivate,
                   AccessThroughReinterpretCast<memref::LoadOp>,
                   AccessThroughReinterpretCast<memref::StoreOp>,
                   AccessThroughTranspose<memref::LoadOp>,
                   AccessThroughTranspose<memref::StoreOp>>(ctx);
      // The metadata of views of static memrefs as arithmetic.
      memref::populateResolveExtractStridedMetadataPatterns(patterns);
      patterns.add<BitwiseReductionToScalars>(ctx);
      patterns.add<ConstantFloatCompare, OrderedBoolCompare, ExpandIsFinite,
                   ExpandRound, ExpandPowF, ExpandAbsI, ExpandAtan2,
                   ApproximationEdges<math::ErfOp>,
                   ApproximationEdges<math::CbrtOp>,
                   KeepZeroSign<math::CeilOp, true>,
                   KeepZeroSign<math::FloorOp, true>,
                   KeepZeroSign<math::AtanOp, true>,
                   KeepZeroSign<math::AsinOp, true>,
                   KeepZeroSign<math::SinhOp, true>,
                   KeepZeroSign<math::TanhOp, true>,
                   KeepZeroSign<math::AsinhOp, true>,
                   KeepZeroSign<math::AtanhOp, true>,
                   KeepZeroSign<math::SinOp, false>,
                   KeepZeroSign<math::TanOp, false>,
                   BitCountTo32<math::CountLeadingZerosOp>,
                   BitCountTo32<math::CountTrailingZerosOp>,
                   BitCountTo32<math::CtPopOp>>(ctx);
      // Functions GLSL.std.450 lacks, or computes badly near zero: MLIR's
      // polynomial approximations (f32, f16 through f32).
      llvm::StringSet<> approximated = {"erf", "erfc", "cbrt", "expm1",
                                         "log1p"};
      // (The predicate sees an op's name, with or without its dialect.)
      auto approximate = [&](StringRef name) {
        name.consume_front("math.");
        return approximated.contains(name);
      };
      populateMathF32ExpansionPatterns(patterns, approximate);
      populateMathPolynomialApproximationPatterns(patterns, approximate);
    }
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (failed(lowerVectors(getOperation(), spirv)))
      return signalPassFailure();
    if (spirv) {
      assignPrivateMemorySpace(getOperation());
      if (failed(lowerDynamicWorkgroupMemory(getOperation())))
        return signalPassFailure();
      // Constant globals the kernels no longer use.
      SmallVector<memref::GlobalOp> globals;
      getOperation()->walk([&](memref::GlobalOp g) { globals.push_back(g); });
      for (memref::GlobalOp g : globals)
        if (g.getConstant() &&
            SymbolTable::symbolKnownUseEmpty(g, g->getParentOp()))
          g.erase();
    }
  }

  /// Vector ops neither target lowers as they are: masks, transfers,
  /// contractions, n-D shapes, gathers and masked memory, as 1-D vector
  /// ops, loads, stores and scf.if; on SPIR-V, n-D vectors unrolled to the
  /// 1-D ones of at most four elements it has.
  LogicalResult lowerVectors(Operation *root, bool spirv) {
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorScanLoweringPatterns(patterns);
      vector::populateVectorStepLoweringPatterns(patterns);
      vector::populateVectorInterleaveLoweringPatterns(patterns);
      vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
      vector::populateVectorGatherLoweringPatterns(patterns);
      vector::populateVectorMaskMaterializationPatterns(
          patterns, /*force32BitVectorIndices=*/true);
      if (spirv) {
        vector::populateVectorGatherToConditionalLoadPatterns(patterns);
        vector::populateVectorMaskedLoadStoreEmulationPatterns(patterns);
        patterns.add<TransferReadByElement, TransferWriteByElement,
                     ScatterByElement, ExpandLoadByElement,
                     CompressStoreByElement, LoadThroughTypeCast,
                     StoreThroughTypeCast>(ctx);
      }
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return failure();
    }
    {
      // Transfers that may leave their memref: element by element.
      RewritePatternSet patterns(ctx);
      populateVectorToSCFConversionPatterns(
          patterns,
          VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(0));
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return failure();
    }
    if (spirv) {
      WalkResult r = root->walk([&](gpu::GPUFuncOp fn) {
        if (failed(spirv::unrollVectorsInFuncBodies(fn)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (r.wasInterrupted())
        return failure();
    }
    return success();
  }
};
} // namespace
