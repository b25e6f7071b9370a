//===- ExpandKernelOps.cpp - Ops a target lacks, in terms of ops it has ---===//
//
// Before the conversion to SPIR-V or NVVM, every op the target has no
// (correct) lowering for is rewritten in terms of ops it has, as upstream's
// NVVM pipeline expands math before converting. docs/ops.md lists which op
// takes which path on which target; test/Ops checks each against the host.
//
//===----------------------------------------------------------------------===//

#include "kiln/Transforms/Passes.h"

#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
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
      if (!view || view.getViewSource() != v)
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class ExpandKernelOpsPass
    : public kiln::impl::KilnExpandKernelOpsBase<ExpandKernelOpsPass> {
public:
  using Base::Base;

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
      patterns.add<ExpandIsNormal, ExpandSinCos>(ctx);
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

    RewritePatternSet patterns(ctx);
    // Both targets.
    arith::populateExpandScalingExtTruncPatterns(patterns);
    arith::populateExpandF8E8M0Patterns(patterns);
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
      patterns.add<ReductionOfNaNPropagatingMinMax>(ctx);
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
    if (spirv)
      assignPrivateMemorySpace(getOperation());
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
