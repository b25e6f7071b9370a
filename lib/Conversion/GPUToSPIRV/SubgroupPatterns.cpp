//===- SubgroupPatterns.cpp - Subgroup ops to GroupNonUniform* ------------===//
//
// gpu.subgroup_reduce, gpu.shuffle, gpu.rotate and gpu.subgroup_broadcast as
// the GroupNonUniform* instructions Vulkan drivers offer, for every mode and
// width; these take precedence over upstream's patterns.
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {
/// gpu.subgroup_reduce of a scalar, `uniform` or not, with every operation:
/// the GroupNonUniform* Reduce instruction over the subgroup (Logical* for
/// i1). Upstream's patterns leave out and / or / xor, and lower `uniform`
/// reductions to the Groups capability (SPV_KHR_shader_ballot era), which
/// Vulkan drivers do not offer; the non-uniform instructions are correct for
/// uniform control flow too.
class SubgroupReduceToGroupNonUniform
    : public OpConversionPattern<gpu::SubgroupReduceOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getClusterSize())
      return rewriter.notifyMatchFailure(op, "clustered");
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !type.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "not a scalar");
    MLIRContext *ctx = op.getContext();
    auto scope = spirv::ScopeAttr::get(ctx, spirv::Scope::Subgroup);
    auto group =
        spirv::GroupOperationAttr::get(ctx, spirv::GroupOperation::Reduce);
    Location loc = op.getLoc();
    Value v = adaptor.getValue();
    bool isFloat = isa<FloatType>(type);
    bool isBool = type.isInteger(1);
    auto make = [&](auto tag) -> Value {
      using OpT = decltype(tag);
      return OpT::create(rewriter, loc, type, scope, group, v, Value());
    };
    using K = gpu::AllReduceOperation;
    Value r;
    switch (op.getOp()) {
    case K::ADD:
      r = isFloat ? make(spirv::GroupNonUniformFAddOp())
                  : make(spirv::GroupNonUniformIAddOp());
      break;
    case K::MUL:
      r = isFloat ? make(spirv::GroupNonUniformFMulOp())
                  : make(spirv::GroupNonUniformIMulOp());
      break;
    case K::MINUI:
      r = make(spirv::GroupNonUniformUMinOp());
      break;
    case K::MINSI:
      r = make(spirv::GroupNonUniformSMinOp());
      break;
    case K::MAXUI:
      r = make(spirv::GroupNonUniformUMaxOp());
      break;
    case K::MAXSI:
      r = make(spirv::GroupNonUniformSMaxOp());
      break;
    case K::MINNUMF:
    case K::MINIMUMF:
      r = make(spirv::GroupNonUniformFMinOp());
      break;
    case K::MAXNUMF:
    case K::MAXIMUMF:
      r = make(spirv::GroupNonUniformFMaxOp());
      break;
    case K::AND:
      r = isBool ? make(spirv::GroupNonUniformLogicalAndOp())
                 : make(spirv::GroupNonUniformBitwiseAndOp());
      break;
    case K::OR:
      r = isBool ? make(spirv::GroupNonUniformLogicalOrOp())
                 : make(spirv::GroupNonUniformBitwiseOrOp());
      break;
    case K::XOR:
      r = isBool ? make(spirv::GroupNonUniformLogicalXorOp())
                 : make(spirv::GroupNonUniformBitwiseXorOp());
      break;
    }
    // (The op's verifier has already matched the operation to the type.)
    rewriter.replaceOp(op, r);
    return success();
  }
};
} // namespace

namespace {
/// gpu.shuffle with MLIR's semantics, for every mode and width, as one
/// GroupNonUniformShuffle from a computed lane. The first `width` lanes
/// take part: lane k reads lane j (xor: k ^ offset, up: k - offset, down:
/// k + offset, idx: offset), and `valid` is k < width and j < width (an
/// unsigned compare, so `up` past lane 0 is out of range too). Where it is
/// false the result is the lane's own value (MLIR leaves it unspecified).
/// Upstream's patterns need the width to equal a subgroup size the target
/// env fixes, and report `valid` true where `up` and `down` leave the
/// range.
class ShuffleToGroupNonUniform : public OpConversionPattern<gpu::ShuffleOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::ShuffleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type resultType =
        getTypeConverter()->convertType(op.getShuffleResult().getType());
    if (!resultType || adaptor.getOffset().getType() != i32 ||
        adaptor.getWidth().getType() != i32)
      return rewriter.notifyMatchFailure(op, "unexpected types");
    auto scope = spirv::ScopeAttr::get(op.getContext(), spirv::Scope::Subgroup);
    // A butterfly step over a whole subgroup of the size the target env
    // fixes (what subgroup reductions are made of) is always valid: one
    // ShuffleXor.
    APInt constantWidth, constantOffset;
    if (op.getMode() == gpu::ShuffleMode::XOR &&
        matchPattern(op.getWidth(), m_ConstantInt(&constantWidth)) &&
        matchPattern(op.getOffset(), m_ConstantInt(&constantOffset)))
      if (std::optional<int> size = spirv::lookupTargetEnvOrDefault(op)
                                        .getResourceLimits()
                                        .getSubgroupSize())
        if (constantWidth.getSExtValue() == *size &&
            constantOffset.getZExtValue() < uint64_t(*size)) {
          Value result = spirv::GroupNonUniformShuffleXorOp::create(
              rewriter, loc, resultType, scope, adaptor.getValue(),
              adaptor.getOffset());
          Value valid = spirv::ConstantOp::create(
              rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
          rewriter.replaceOp(op, {result, valid});
          return success();
        }
    Value lane = spirv::getBuiltinVariableValue(
        op, spirv::BuiltIn::SubgroupLocalInvocationId, i32, rewriter);
    Value offset = adaptor.getOffset();
    Value width = adaptor.getWidth();
    Value source;
    switch (op.getMode()) {
    case gpu::ShuffleMode::XOR:
      source = spirv::BitwiseXorOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::UP:
      source = spirv::ISubOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::DOWN:
      source = spirv::IAddOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::IDX:
      source = offset;
      break;
    }
    Value laneIn = spirv::ULessThanOp::create(rewriter, loc, lane, width);
    Value sourceIn = spirv::ULessThanOp::create(rewriter, loc, source, width);
    Value valid = spirv::LogicalAndOp::create(rewriter, loc, laneIn, sourceIn);
    source = spirv::SelectOp::create(rewriter, loc, valid, source, lane);
    Value result = spirv::GroupNonUniformShuffleOp::create(
        rewriter, loc, resultType, scope, adaptor.getValue(), source);
    rewriter.replaceOp(op, {result, valid});
    return success();
  }
};
} // namespace

namespace {
/// gpu.rotate as one GroupNonUniformShuffle from the rotated lane within
/// the invocation's group of `width` lanes (GroupNonUniformRotateKHR is
/// rare: lavapipe lacks it); valid where the lane is below the width.
class RotateToGroupNonUniform : public OpConversionPattern<gpu::RotateOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::RotateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type resultType = getTypeConverter()->convertType(op.getType(0));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unexpected types");
    auto c = [&](int64_t v) -> Value {
      return spirv::ConstantOp::create(rewriter, loc, i32,
                                       rewriter.getI32IntegerAttr(v));
    };
    uint32_t width = op.getWidth(), offset = op.getOffset();
    Value lane = spirv::getBuiltinVariableValue(
        op, spirv::BuiltIn::SubgroupLocalInvocationId, i32, rewriter);
    // One value per statement: the IR's order does not depend on the order
    // the compiler evaluates arguments in.
    Value sum = spirv::IAddOp::create(rewriter, loc, lane, c(offset));
    Value moved = spirv::BitwiseAndOp::create(rewriter, loc, sum, c(width - 1));
    Value group = spirv::BitwiseAndOp::create(rewriter, loc, lane,
                                              c(~int64_t(width - 1)));
    Value source = spirv::IAddOp::create(rewriter, loc, moved, group);
    Value valid = spirv::ULessThanOp::create(rewriter, loc, lane, c(width));
    source = spirv::SelectOp::create(rewriter, loc, valid, source, lane);
    auto scope = spirv::ScopeAttr::get(op.getContext(), spirv::Scope::Subgroup);
    Value result = spirv::GroupNonUniformShuffleOp::create(
        rewriter, loc, resultType, scope, adaptor.getValue(), source);
    rewriter.replaceOp(op, {result, valid});
    return success();
  }
};

/// gpu.subgroup_broadcast: from a specific lane, GroupNonUniformBroadcast
/// where the lane is a constant (SPIR-V before 1.5 wants one) and
/// GroupNonUniformShuffle otherwise; from the first active lane, a
/// shuffle from the lowest bit of a ballot of the active lanes.
class BroadcastToGroupNonUniform
    : public OpConversionPattern<gpu::SubgroupBroadcastOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupBroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unexpected type");
    auto scope = spirv::ScopeAttr::get(op.getContext(), spirv::Scope::Subgroup);
    Value value = adaptor.getSrc();
    if (op.getBroadcastType() == gpu::BroadcastType::specific_lane) {
      Value lane = adaptor.getLane();
      if (matchPattern(op.getLane(), m_Constant()))
        rewriter.replaceOpWithNewOp<spirv::GroupNonUniformBroadcastOp>(
            op, type, scope, value, lane);
      else
        rewriter.replaceOpWithNewOp<spirv::GroupNonUniformShuffleOp>(
            op, type, scope, value, lane);
      return success();
    }
    Type i32 = rewriter.getI32Type();
    Value yes = spirv::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                          rewriter.getBoolAttr(true));
    Value ballot = spirv::GroupNonUniformBallotOp::create(
        rewriter, loc, VectorType::get({4}, i32), spirv::Scope::Subgroup, yes);
    Value first = spirv::GroupNonUniformBallotFindLSBOp::create(
        rewriter, loc, i32, scope, ballot);
    rewriter.replaceOpWithNewOp<spirv::GroupNonUniformShuffleOp>(
        op, type, scope, value, first);
    return success();
  }
};
} // namespace

void kiln::populateSubgroupToGroupNonUniformPatterns(
    const SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<SubgroupReduceToGroupNonUniform, ShuffleToGroupNonUniform,
               RotateToGroupNonUniform, BroadcastToGroupNonUniform>(
      typeConverter, patterns.getContext(), /*benefit=*/2);
}
