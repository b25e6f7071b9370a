//===- AtomicPatterns.cpp - Generic atomics as compare-exchange -----------===//
//
// memref.generic_atomic_rmw, which upstream does not lower, as a
// compare-and-swap loop; this takes precedence over upstream's patterns.
// KernelChecks.cpp refuses the element types it cannot take.
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {
/// memref.generic_atomic_rmw on an integer element: a compare-and-swap loop.
/// The current value is loaded, the body computes the new one, and
/// AtomicCompareExchange stores it if the element still holds the value the
/// body saw; otherwise the loop runs the body again on the value found. The
/// result is the value the element held before the successful exchange, as
/// the op specifies. The loop is an scf.while, lowered with the rest of the
/// kernel's control flow. Floats are refused: logical addressing cannot view
/// a float element as the integer an exchange needs.
class GenericAtomicRMWToCompareExchange
    : public OpConversionPattern<memref::GenericAtomicRMWOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::GenericAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemRefType memrefType = op.getMemref().getType();
    Type element = memrefType.getElementType();
    if (!element.isInteger(32) && !element.isInteger(64))
      return rewriter.notifyMatchFailure(op, "not a 32/64-bit integer");
    auto storage =
        dyn_cast<spirv::StorageClassAttr>(memrefType.getMemorySpace());
    if (!storage)
      return rewriter.notifyMatchFailure(op, "memory space not converted");
    const auto &converter = *getTypeConverter<SPIRVTypeConverter>();
    Type type = converter.convertType(element);
    Value ptr = spirv::getElementPtr(converter, memrefType, adaptor.getMemref(),
                                     adaptor.getIndices(), loc, rewriter);
    if (!type || !ptr)
      return rewriter.notifyMatchFailure(op, "cannot address the element");
    spirv::Scope scope = storage.getValue() == spirv::StorageClass::Workgroup
                             ? spirv::Scope::Workgroup
                             : spirv::Scope::Device;
    // The first guess is an atomic load: a plain load of an element other
    // invocations update is a data race.
    MLIRContext *ctx = op.getContext();
    Value init = spirv::AtomicIAddOp::create(
        rewriter, loc, type, ptr, spirv::ScopeAttr::get(ctx, scope),
        spirv::MemorySemanticsAttr::get(ctx, spirv::MemorySemantics::None),
        spirv::ConstantOp::getZero(type, loc, rewriter));
    auto loop =
        scf::WhileOp::create(rewriter, loc, TypeRange{type}, ValueRange{init});
    Block *before = rewriter.createBlock(&loop.getBefore(), {}, {type}, {loc});
    Value current = before->getArgument(0);
    Block &body = op.getAtomicBody().front();
    IRMapping map;
    map.map(body.getArgument(0), current);
    for (Operation &inner : body.without_terminator())
      rewriter.clone(inner, map);
    auto yield = cast<memref::AtomicYieldOp>(body.getTerminator());
    Value desired = map.lookupOrDefault(yield.getResult());
    // Relaxed: the op promises atomicity, not ordering of other accesses
    // (and Mesa 22.3's lavapipe loses updates of a compare-exchange loop
    // with acquire/release semantics across the subgroups of a workgroup).
    Value found = spirv::AtomicCompareExchangeOp::create(
        rewriter, loc, type, ptr, spirv::ScopeAttr::get(ctx, scope),
        spirv::MemorySemanticsAttr::get(ctx, spirv::MemorySemantics::None),
        spirv::MemorySemanticsAttr::get(ctx, spirv::MemorySemantics::None),
        desired, current);
    Value retry = spirv::INotEqualOp::create(rewriter, loc, found, current);
    scf::ConditionOp::create(rewriter, loc, retry, ValueRange{found});
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, {type}, {loc});
    scf::YieldOp::create(rewriter, loc, after->getArgument(0));
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};
} // namespace

void kiln::populateGenericAtomicRMWPatterns(
    const SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<GenericAtomicRMWToCompareExchange>(
      typeConverter, patterns.getContext(), /*benefit=*/2);
}
