//===- KernelRewrites.cpp - Kernel bodies for upstream's patterns ---------===//
//
// Rewrites of the functions of the clone, before its conversion, into what
// upstream's patterns lower correctly: attributions as allocations, vector
// accesses of scalar memrefs as scalar accesses, emulated narrow integer ops
// at 32 bits, and control flow lifted into structured scf ops.
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"
#include "VectorMemory.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"

#include <functional>

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// Kernel bodies
//===----------------------------------------------------------------------===//

/// Upstream's gpu.func lowering does not take attributions. Turn each
/// workgroup attribution into a memref.alloc in workgroup memory (a Workgroup
/// variable after conversion) and each private one into a memref.alloca
/// (a Function variable), at the top of the kernel.
LogicalResult kiln::materializeAttributions(gpu::GPUFuncOp fn) {
  unsigned first = fn.getFirstWorkgroupAttributionIndex();
  Block &entry = fn.getBody().front();
  unsigned numAttributions = entry.getNumArguments() - first;
  if (numAttributions == 0)
    return success();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  unsigned numWorkgroup = fn.getNumWorkgroupAttributions();
  for (unsigned i = 0; i < numAttributions; ++i) {
    BlockArgument arg = entry.getArgument(first + i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return fn.emitError("kernel '")
             << fn.getName() << "' has a "
             << (i < numWorkgroup ? "workgroup" : "private")
             << " attribution of type " << arg.getType()
             << "; attributions must be memrefs with a static shape";
    Value replacement =
        i < numWorkgroup
            ? memref::AllocOp::create(b, arg.getLoc(), type).getResult()
            : memref::AllocaOp::create(b, arg.getLoc(), type).getResult();
    arg.replaceAllUsesWith(replacement);
  }
  entry.eraseArguments(first, numAttributions);
  fn->removeAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName());
  fn->removeAttr(fn.getWorkgroupAttribAttrsAttrName());
  fn->removeAttr(fn.getPrivateAttribAttrsAttrName());
  return success();
}

/// Upstream lowers a vector.load / vector.store of a scalar memref to a
/// pointer bitcast, which logical-addressing SPIR-V does not allow. Split 1-D
/// ones into scalar accesses of consecutive elements.
void kiln::scalarizeVectorAccesses(gpu::GPUFuncOp fn) {
  auto offsetIndices = [](OpBuilder &b, Location loc, ValueRange indices,
                          int64_t i) {
    SmallVector<Value> shifted(indices);
    Value step = arith::ConstantIndexOp::create(b, loc, i);
    shifted.back() = arith::AddIOp::create(b, loc, shifted.back(), step);
    return shifted;
  };
  auto scalarElements = [](MemRefType memref, VectorType vector) {
    return !isa<VectorType>(memref.getElementType()) && vector.getRank() == 1 &&
           !vector.isScalable() && memref.getRank() > 0;
  };
  fn.walk([&](vector::LoadOp load) {
    if (!scalarElements(load.getMemRefType(), load.getVectorType()) ||
        isVectorComponentAccess(load))
      return;
    OpBuilder b(load);
    Location loc = load.getLoc();
    SmallVector<Value> elements;
    for (int64_t i = 0, e = load.getVectorType().getNumElements(); i < e; ++i)
      elements.push_back(memref::LoadOp::create(
          b, loc, load.getBase(), offsetIndices(b, loc, load.getIndices(), i)));
    load.replaceAllUsesWith(
        vector::FromElementsOp::create(b, loc, load.getVectorType(), elements)
            .getResult());
    load.erase();
  });
  fn.walk([&](vector::StoreOp store) {
    if (!scalarElements(store.getMemRefType(), store.getVectorType()) ||
        isVectorComponentAccess(store))
      return;
    OpBuilder b(store);
    Location loc = store.getLoc();
    for (int64_t i = 0, e = store.getVectorType().getNumElements(); i < e;
         ++i) {
      Value element =
          vector::ExtractOp::create(b, loc, store.getValueToStore(), i);
      memref::StoreOp::create(b, loc, element, store.getBase(),
                              offsetIndices(b, loc, store.getIndices(), i));
    }
    store.erase();
  });
}

/// Where the target env has no Int8 (Int16), upstream holds i8 (i16) values in
/// 32-bit registers whose upper bits are not kept in any particular state, yet
/// lowers comparisons, divisions, right shifts, min/max and int-to-float
/// conversions as if they were. Do those ops at 32 bits on operands
/// sign- or zero-extended from the narrow type (which upstream lowers
/// exactly), then truncate the result back.
void kiln::widenEmulatedIntegerOps(gpu::GPUFuncOp fn,
                                   spirv::TargetEnvAttr env) {
  spirv::TargetEnv target(env);
  auto emulated = [&](Type type) {
    auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
    if (!integer)
      return false;
    unsigned width = integer.getWidth();
    return (width == 8 && !target.allows(spirv::Capability::Int8)) ||
           (width == 16 && !target.allows(spirv::Capability::Int16));
  };
  auto widened = [](Type type) -> Type {
    Type i32 = IntegerType::get(type.getContext(), 32);
    if (auto vector = dyn_cast<VectorType>(type))
      return vector.clone(i32);
    return i32;
  };
  // Whether operand `i` of `op` is read as a signed value.
  auto isSignedOperand = [](Operation *op, unsigned i) -> std::optional<bool> {
    if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::slt:
      case arith::CmpIPredicate::sle:
      case arith::CmpIPredicate::sgt:
      case arith::CmpIPredicate::sge:
        return true;
      default:
        return false;
      }
    if (isa<arith::ShRSIOp>(op))
      return i == 0;
    if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
            arith::FloorDivSIOp, arith::MaxSIOp, arith::MinSIOp,
            arith::SIToFPOp, arith::IndexCastOp>(op))
      return true;
    if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp, arith::ShRUIOp,
            arith::MaxUIOp, arith::MinUIOp, arith::UIToFPOp,
            arith::IndexCastUIOp>(op))
      return false;
    return std::nullopt;
  };
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (op->getNumOperands() > 0 && isSignedOperand(op, 0) &&
        llvm::any_of(op->getOperandTypes(), emulated))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (!emulated(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      Type wide = widened(operand.getType());
      operands.push_back(
          *isSignedOperand(op, i)
              ? arith::ExtSIOp::create(b, loc, wide, operand).getResult()
              : arith::ExtUIOp::create(b, loc, wide, operand).getResult());
    }
    SmallVector<Type> resultTypes;
    for (Type type : op->getResultTypes())
      resultTypes.push_back(emulated(type) ? widened(type) : type);
    OperationState state(loc, op->getName(), operands, resultTypes,
                         op->getAttrs());
    Operation *wide = b.create(state);
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), wide->getResults())) {
      Value replacement = newResult;
      if (oldResult.getType() != newResult.getType())
        replacement =
            arith::TruncIOp::create(b, loc, oldResult.getType(), newResult);
      oldResult.replaceAllUsesWith(replacement);
    }
    op->erase();
  }
}
//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

namespace {
/// Upstream's cf-to-scf lifting, with gpu.return as the function terminator.
class LiftGPUControlFlow : public ControlFlowToSCFTransformation {
public:
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &region) override {
    auto fn = dyn_cast<gpu::GPUFuncOp>(region.getParentOp());
    if (!fn)
      return emitError(loc, "cannot structure control flow in this region");
    SmallVector<Value> poison;
    for (Type type : fn.getFunctionType().getResults())
      poison.push_back(getUndefValue(loc, builder, type));
    return gpu::ReturnOp::create(builder, loc, poison).getOperation();
  }
};
} // namespace

/// scf.index_switch has no SPIR-V lowering: rewrite it as a chain of scf.if
/// on `arg == case`, the default region innermost.
void kiln::lowerIndexSwitches(gpu::GPUFuncOp fn) {
  SmallVector<scf::IndexSwitchOp> switches;
  fn.walk([&](scf::IndexSwitchOp op) { switches.push_back(op); });
  // Post-order: inner switches first, so moved regions hold no switches.
  for (scf::IndexSwitchOp op : switches) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    TypeRange types = op.getResultTypes();
    // Builds the if for case `i` and onwards at `b`; returns its results.
    std::function<ValueRange(OpBuilder &, unsigned)> build =
        [&](OpBuilder &b, unsigned i) -> ValueRange {
      Value value = arith::ConstantIndexOp::create(b, loc, op.getCases()[i]);
      Value match = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          op.getArg(), value);
      auto ifOp = scf::IfOp::create(b, loc, types, match,
                                    /*withElseRegion=*/true);
      Region &thenRegion = ifOp.getThenRegion();
      thenRegion.getBlocks().clear();
      thenRegion.getBlocks().splice(thenRegion.end(),
                                    op.getCaseRegions()[i].getBlocks());
      Region &elseRegion = ifOp.getElseRegion();
      elseRegion.getBlocks().clear();
      if (i + 1 == op.getNumCases()) {
        elseRegion.getBlocks().splice(elseRegion.end(),
                                      op.getDefaultRegion().getBlocks());
      } else {
        Block *block = new Block();
        elseRegion.push_back(block);
        OpBuilder inner = OpBuilder::atBlockBegin(block);
        ValueRange results = build(inner, i + 1);
        scf::YieldOp::create(inner, loc, results);
      }
      return ifOp.getResults();
    };
    if (op.getNumCases() == 0) {
      // Only the default region: inline it.
      Block &body = op.getDefaultRegion().front();
      auto yield = cast<scf::YieldOp>(body.getTerminator());
      SmallVector<Value> results(yield.getOperands());
      yield.erase();
      op->getBlock()->getOperations().splice(Block::iterator(op),
                                             body.getOperations());
      op.replaceAllUsesWith(results);
    } else {
      op.replaceAllUsesWith(build(b, 0));
    }
    op.erase();
  }
}

/// Vulkan's SPIR-V requires structured control flow: lift cf.br / cf.cond_br /
/// cf.switch graphs into scf.if, scf.index_switch and scf.while.
LogicalResult kiln::liftControlFlow(gpu::GPUFuncOp fn) {
  LiftGPUControlFlow transformation;
  DominanceInfo dominance(fn);
  WalkResult result = fn->walk<WalkOrder::PostOrder>([&](Operation *op) {
    for (Region &region : op->getRegions()) {
      if (region.empty() || region.hasOneBlock())
        continue;
      if (failed(transformCFGToSCF(region, transformation, dominance))) {
        op->emitError("control flow of '")
            << fn.getName() << "' cannot be structured for SPIR-V";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
