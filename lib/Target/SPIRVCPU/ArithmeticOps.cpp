//===- ArithmeticOps.cpp - Arithmetic SPIR-V ops of the spirv-cpu target --===//
//
// Arithmetic ops that upstream's SPIR-V to LLVM conversion leaves out or
// lowers otherwise than the spirv-cpu target needs: GLSL Fma, SAbs, the
// integer min and max as LLVM intrinsics, Dot summed in lane order,
// SNegate, IsNan, IsInf, and vectors constructed from scalars and smaller
// vectors. The GLSL.std.450 functions and extended arithmetic upstream
// lacks are in ExtendedOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "SPIRVToCPUInternal.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

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

} // namespace

void kiln::spirvtocpu::populateArithmeticPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<FmaPattern, DotPattern, SAbsPattern, SNegatePattern, IsNanPattern,
           IsInfPattern, BinaryIntrinsicPattern<spirv::GLUMinOp, LLVM::UMinOp>,
           BinaryIntrinsicPattern<spirv::GLUMaxOp, LLVM::UMaxOp>,
           BinaryIntrinsicPattern<spirv::GLSMinOp, LLVM::SMinOp>,
           BinaryIntrinsicPattern<spirv::GLSMaxOp, LLVM::SMaxOp>>(
          converter, ctx, /*benefit=*/10);
  patterns.add<CompositeConstructPattern>(converter, ctx);
}
