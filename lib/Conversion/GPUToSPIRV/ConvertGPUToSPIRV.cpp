//===- ConvertGPUToSPIRV.cpp - GPU modules to nested spirv.modules --------===//
//
// Upstream has the patterns but only a test pass that nests the result in the
// GPU module; this pass composes them, adds Kiln's push-constant ABI for
// scalars and dynamic memrefs, and explains ops that do not lower.
//
//===----------------------------------------------------------------------===//

#include "ArithMathPatterns.h"
#include "LowerPrintf.h"
#include "MemorySpaces.h"
#include "VectorMemory.h"
#include "kiln/Conversion/GPUToSPIRV/Passes.h"
#include "kiln/Conversion/Unconvertible.h"
#include "kiln/Target/SPIRV/Serialization.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCONVERTGPUTOSPIRV
#include "kiln/Conversion/GPUToSPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using container::ArgInfo;
using container::ArgKind;
using container::ScalarType;

//===----------------------------------------------------------------------===//
// Flattening memrefs with dynamic shape or layout
//===----------------------------------------------------------------------===//

namespace {
/// The run-time description of a strided memref view over a flat buffer.
struct MemRefMeta {
  Value offset;
  SmallVector<Value> sizes;
  SmallVector<Value> strides;
};

/// Rewrites every use of an N-D memref into accesses of a flat `memref<?xT>`
/// buffer at `offset + sum(index_i * stride_i)`.
class Flattener {
public:
  explicit Flattener(Value flat) : flat(flat) {}

  LogicalResult rewrite(Value view, const MemRefMeta &meta) {
    for (OpOperand &use : llvm::make_early_inc_range(view.getUses()))
      if (failed(rewriteUse(use, meta)))
        return failure();
    return success();
  }

private:
  Value linearize(OpBuilder &b, Location loc, const MemRefMeta &meta,
                  ValueRange indices) {
    Value linear = meta.offset;
    for (auto [index, stride] : llvm::zip(indices, meta.strides)) {
      Value term = arith::MulIOp::create(b, loc, index, stride);
      linear = arith::AddIOp::create(b, loc, linear, term);
    }
    return linear;
  }

  LogicalResult rewriteUse(OpOperand &use, const MemRefMeta &meta) {
    Operation *user = use.getOwner();
    OpBuilder b(user);
    Location loc = user->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      Value idx = linearize(b, loc, meta, load.getIndices());
      load.replaceAllUsesWith(
          memref::LoadOp::create(b, loc, flat, ValueRange{idx}).getResult());
      load.erase();
      return success();
    }
    if (auto store = dyn_cast<memref::StoreOp>(user)) {
      if (use.get() != store.getMemRef())
        return unsupported(user);
      Value idx = linearize(b, loc, meta, store.getIndices());
      memref::StoreOp::create(b, loc, store.getValueToStore(), flat,
                              ValueRange{idx});
      store.erase();
      return success();
    }
    if (auto rmw = dyn_cast<memref::AtomicRMWOp>(user)) {
      Value idx = linearize(b, loc, meta, rmw.getIndices());
      auto repl = memref::AtomicRMWOp::create(b, loc, rmw.getKind(),
                                              rmw.getValue(), flat,
                                              ValueRange{idx});
      rmw.replaceAllUsesWith(repl.getResult());
      rmw.erase();
      return success();
    }
    if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(user)) {
      Value idx = linearize(b, loc, meta, rmw.getIndices());
      auto repl = memref::GenericAtomicRMWOp::create(b, loc, flat,
                                                     ValueRange{idx});
      repl.getAtomicBody().takeBody(rmw.getAtomicBody());
      rmw.replaceAllUsesWith(repl.getResult());
      rmw.erase();
      return success();
    }
    if (auto vload = dyn_cast<vector::LoadOp>(user)) {
      Value idx = linearize(b, loc, meta, vload.getIndices());
      auto repl = vector::LoadOp::create(b, loc, vload.getVectorType(), flat,
                                         ValueRange{idx});
      // What the program says of the address stays true of the element.
      repl.setAlignmentAttr(vload.getAlignmentAttr());
      repl.setNontemporal(vload.getNontemporal());
      vload.replaceAllUsesWith(repl.getResult());
      vload.erase();
      return success();
    }
    if (auto vstore = dyn_cast<vector::StoreOp>(user)) {
      if (use.get() != vstore.getBase())
        return unsupported(user);
      Value idx = linearize(b, loc, meta, vstore.getIndices());
      auto repl = vector::StoreOp::create(b, loc, vstore.getValueToStore(),
                                          flat, ValueRange{idx});
      repl.setAlignmentAttr(vstore.getAlignmentAttr());
      repl.setNontemporal(vstore.getNontemporal());
      vstore.erase();
      return success();
    }
    if (auto dim = dyn_cast<memref::DimOp>(user)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!index || *index < 0 ||
          *index >= static_cast<int64_t>(meta.sizes.size()))
        return dim.emitError("memref.dim of a kernel argument needs a "
                             "constant dimension in range");
      dim.replaceAllUsesWith(meta.sizes[*index]);
      dim.erase();
      return success();
    }
    if (auto cast = dyn_cast<memref::CastOp>(user)) {
      if (failed(rewrite(cast.getResult(), meta)))
        return failure();
      cast.erase();
      return success();
    }
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      MemRefMeta sub;
      sub.offset = meta.offset;
      llvm::SmallBitVector dropped = subview.getDroppedDims();
      for (unsigned i = 0, e = meta.sizes.size(); i < e; ++i) {
        Value off = getValueOrCreateConstantIndexOp(
            b, loc, subview.getMixedOffsets()[i]);
        Value term = arith::MulIOp::create(b, loc, off, meta.strides[i]);
        sub.offset = arith::AddIOp::create(b, loc, sub.offset, term);
        if (dropped.test(i))
          continue;
        sub.sizes.push_back(getValueOrCreateConstantIndexOp(
            b, loc, subview.getMixedSizes()[i]));
        Value step = getValueOrCreateConstantIndexOp(
            b, loc, subview.getMixedStrides()[i]);
        sub.strides.push_back(
            arith::MulIOp::create(b, loc, meta.strides[i], step));
      }
      if (failed(rewrite(subview.getResult(), sub)))
        return failure();
      subview.erase();
      return success();
    }
    if (auto md = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
      if (!md.getBaseBuffer().use_empty())
        return md.emitError("the base buffer of a kernel argument with "
                            "dynamic shape or layout cannot be used in a "
                            "Vulkan kernel");
      md.getOffset().replaceAllUsesWith(meta.offset);
      for (auto [r, v] : llvm::zip(md.getSizes(), meta.sizes))
        r.replaceAllUsesWith(v);
      for (auto [r, v] : llvm::zip(md.getStrides(), meta.strides))
        r.replaceAllUsesWith(v);
      md.erase();
      return success();
    }
    return unsupported(user);
  }

  LogicalResult unsupported(Operation *user) {
    return user->emitError("'")
           << user->getName()
           << "' on a memref with dynamic shape or layout is not supported "
              "in a Vulkan kernel; use memref.load, memref.store, "
              "memref.atomic_rmw, memref.generic_atomic_rmw, memref.dim, "
              "memref.subview, memref.cast, "
              "vector.load or vector.store";
  }

  Value flat;
};
} // namespace

/// The type a scalar occupies in the push-constant block.
static Type getPushConstantType(ScalarType type, unsigned indexBits,
                                MLIRContext *ctx) {
  switch (type) {
  case ScalarType::I64:
    return IntegerType::get(ctx, 64);
  case ScalarType::F16:
  case ScalarType::F32:
    return Float32Type::get(ctx);
  case ScalarType::F64:
    return Float64Type::get(ctx);
  case ScalarType::Index:
    return IntegerType::get(ctx, indexBits);
  default:
    return IntegerType::get(ctx, 32);
  }
}

/// Converts a push-constant field to the argument's own type.
static Value fromPushConstant(OpBuilder &b, Location loc, Value field,
                              Type type) {
  if (field.getType() == type)
    return field;
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, field);
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc, type, field);
  return arith::TruncIOp::create(b, loc, type, field);
}

/// Rewrites the clone of a kernel so that scalars and memref metadata arrive
/// as trailing push-constant fields and dynamic memrefs as flat buffers.
static LogicalResult rewriteKernelSignature(gpu::GPUFuncOp fn,
                                            const KernelABI &abi) {
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  Block &entry = fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  unsigned numOriginal = abi.args.size();
  StringRef varABIName = spirv::getInterfaceVarABIAttrName();
  auto placeholderABI = spirv::getInterfaceVarABIAttr(0, 0, std::nullopt, ctx);

  // Flat buffers first, then the push-constant fields in offset order.
  SmallVector<std::pair<unsigned, BlockArgument>> flats;
  for (unsigned i = 0; i < numOriginal; ++i) {
    if (!abi.hasMetadata(i))
      continue;
    auto type = cast<MemRefType>(fn.getArgument(i).getType());
    auto flatType = MemRefType::get({ShapedType::kDynamic},
                                    type.getElementType(), AffineMap(),
                                    type.getMemorySpace());
    unsigned pos = fn.getNumArguments();
    if (failed(fn.insertArgument(pos, flatType,
                                 fn.getArgAttrDict(i), fn.getArgument(i).getLoc())))
      return failure();
    flats.push_back({i, fn.getArgument(pos)});
  }

  // Arguments bound by device address (the flat buffer where there is one)
  // convert as storage buffers with a placeholder binding; the address in
  // the push constants replaces them after the conversion
  // (materializePushConstants).
  for (unsigned i = 0; i < numOriginal; ++i) {
    const ArgInfo &a = abi.args[i];
    if (!container::isAddressKind(a.kind))
      continue;
    unsigned pos = i;
    for (auto [original, flat] : flats)
      if (original == i)
        pos = flat.getArgNumber();
    fn.setArgAttr(pos, varABIName, placeholderABI);
    fn.setArgAttr(pos, kAddressFieldAttr,
                  b.getI32IntegerAttr(a.pushConstantOffset));
  }

  // Every push-constant field: (offset, type) -> argument.
  std::map<unsigned, Type> fields;
  unsigned ib = abi.indexBytes();
  Type indexField = IntegerType::get(ctx, abi.indexBits);
  for (unsigned i = 0; i < numOriginal; ++i) {
    const ArgInfo &a = abi.args[i];
    if (a.kind == ArgKind::Scalar)
      fields[a.pushConstantOffset] =
          getPushConstantType(a.scalarType, abi.indexBits, ctx);
    if (container::isAddressKind(a.kind))
      fields[a.pushConstantOffset] = IntegerType::get(ctx, 64);
    if (abi.hasMetadata(i))
      for (unsigned f = 0; f < 1 + 2 * a.rank; ++f)
        fields[abi.metadataOffset(i) + f * ib] = indexField;
  }
  std::map<unsigned, Value> fieldValues;
  SmallVector<Attribute> fieldOffsets;
  for (auto [offset, type] : fields) {
    unsigned pos = fn.getNumArguments();
    if (failed(fn.insertArgument(
            pos, type,
            DictionaryAttr::get(ctx, {NamedAttribute(varABIName,
                                                     placeholderABI)}),
            loc)))
      return failure();
    fieldValues[offset] = fn.getArgument(pos);
    fieldOffsets.push_back(b.getI32IntegerAttr(offset));
  }

  llvm::BitVector erase(fn.getNumArguments());
  for (unsigned i = 0; i < numOriginal; ++i) {
    const ArgInfo &a = abi.args[i];
    BlockArgument arg = fn.getArgument(i);
    if (a.kind == ArgKind::Scalar) {
      arg.replaceAllUsesWith(fromPushConstant(
          b, arg.getLoc(), fieldValues[a.pushConstantOffset], arg.getType()));
      erase.set(i);
    }
  }
  for (auto [argIndex, flat] : flats) {
    unsigned i = argIndex;
    const ArgInfo &a = abi.args[i];
    auto index = [&](unsigned f) -> Value {
      return arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          fieldValues[abi.metadataOffset(i) + f * ib]);
    };
    // Sizes, strides and offsets the memref's type fixes are constants:
    // that is what the type promises, and a unit innermost stride is what
    // lets drivers see contiguous accesses (vector loads on CPUs, coalescing
    // analysis on GPUs) instead of a gather through a pushed stride. An
    // identity layout's offset is 0: the runtime binds such a buffer at its
    // first element (IdentityMemRef), or pushes the address of that element
    // (StridedAddress). Any other layout's offset comes from the push
    // constants, to which the runtime adds the distance from the aligned
    // binding start.
    SmallVector<int64_t> staticStrides;
    int64_t staticOffset;
    auto type = cast<MemRefType>(fn.getArgument(i).getType());
    if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
      staticStrides.assign(a.rank, ShapedType::kDynamic);
    auto known = [&](int64_t value, unsigned field) -> Value {
      if (ShapedType::isDynamic(value))
        return index(field);
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    MemRefMeta meta;
    meta.offset = type.getLayout().isIdentity()
                      ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
                      : index(0);
    for (unsigned d = 0; d < a.rank; ++d) {
      meta.sizes.push_back(known(type.getDimSize(d), 1 + d));
      meta.strides.push_back(known(staticStrides[d], 1 + a.rank + d));
    }
    if (failed(Flattener(flat).rewrite(fn.getArgument(i), meta)))
      return failure();
    erase.set(i);
  }
  if (failed(fn.eraseArguments(erase)))
    return failure();
  fn->setAttr(kPushConstantFieldsAttr, ArrayAttr::get(ctx, fieldOffsets));
  SmallVector<int32_t> addressArgs;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    if (auto field = fn.getArgAttrOfType<IntegerAttr>(i, kAddressFieldAttr)) {
      addressArgs.append({int32_t(i), int32_t(field.getInt())});
      fn.removeArgAttr(i, kAddressFieldAttr);
    }
  if (!addressArgs.empty())
    fn->setAttr(kAddressArgsAttr, b.getDenseI32ArrayAttr(addressArgs));
  return success();
}

/// Upstream's type converter widens f16 buffers it cannot access to f32, which
/// would read the host's 16-bit data with a 32-bit stride. Refuse instead.
static LogicalResult checkNarrowFloatStorage(gpu::GPUFuncOp fn,
                                             spirv::TargetEnvAttr env) {
  spirv::TargetEnv target(env);
  // Not getArguments(): the entry block also holds workgroup and private
  // attributions.
  for (unsigned argIndex = 0; argIndex < fn.getNumArguments(); ++argIndex) {
    BlockArgument arg = fn.getArgument(argIndex);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      continue;
    Type element = getElementTypeOrSelf(type.getElementType());
    if (!isa<FloatType>(element) || element.getIntOrFloatBitWidth() >= 32)
      continue;
    if (!element.isF16())
      return fn.emitError("kernel '")
             << fn.getName() << "' argument " << arg.getArgNumber()
             << " has element type " << element
             << ", which Vulkan storage buffers cannot hold";
    if (!target.allows(spirv::Capability::StorageBuffer16BitAccess) ||
        !target.allows(spirv::Extension::SPV_KHR_16bit_storage))
      return fn.emitError("kernel '")
             << fn.getName() << "' argument " << arg.getArgNumber()
             << " of type " << type
             << " cannot be accessed for this target env: it needs "
                "capability StorageBuffer16BitAccess and extension "
                "SPV_KHR_16bit_storage; "
             << describeTargetEnv(env);
  }
  return success();
}

/// Upstream's gpu.func lowering does not take attributions. Turn each
/// workgroup attribution into a memref.alloc in workgroup memory (a Workgroup
/// variable after conversion) and each private one into a memref.alloca
/// (a Function variable), at the top of the kernel.
static LogicalResult materializeAttributions(gpu::GPUFuncOp fn) {
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
static void scalarizeVectorAccesses(gpu::GPUFuncOp fn) {
  auto offsetIndices = [](OpBuilder &b, Location loc, ValueRange indices,
                          int64_t i) {
    SmallVector<Value> shifted(indices);
    Value step = arith::ConstantIndexOp::create(b, loc, i);
    shifted.back() = arith::AddIOp::create(b, loc, shifted.back(), step);
    return shifted;
  };
  auto scalarElements = [](MemRefType memref, VectorType vector) {
    return !isa<VectorType>(memref.getElementType()) &&
           vector.getRank() == 1 && !vector.isScalable() &&
           memref.getRank() > 0;
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
static void widenEmulatedIntegerOps(gpu::GPUFuncOp fn,
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
    if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp,
            arith::ShRUIOp, arith::MaxUIOp, arith::MinUIOp, arith::UIToFPOp,
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
        replacement = arith::TruncIOp::create(b, loc, oldResult.getType(),
                                              newResult);
      oldResult.replaceAllUsesWith(replacement);
    }
    op->erase();
  }
}

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
static void lowerIndexSwitches(gpu::GPUFuncOp fn) {
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
static LogicalResult liftControlFlow(gpu::GPUFuncOp fn) {
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

//===----------------------------------------------------------------------===//
// Push constants on the SPIR-V side
//===----------------------------------------------------------------------===//

/// Bytes of the scalar a load or store through a buffer pointer moves: the
/// alignment its Aligned operand promises (every element is aligned to its
/// scalar size, docs/abi.md).
static unsigned scalarAlignment(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    type = vec.getElementType();
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

/// Makes `op`'s memory access Aligned, as every load and store through a
/// PhysicalStorageBuffer pointer must be.
template <typename OpT> static void setAligned(OpT op, Type valueType) {
  auto access = spirv::MemoryAccess::Aligned;
  if (auto existing = op.getMemoryAccessAttr())
    access = access | existing.getValue();
  op.setMemoryAccessAttr(
      spirv::MemoryAccessAttr::get(op.getContext(), access));
  op.setAlignmentAttr(IntegerAttr::get(IntegerType::get(op.getContext(), 32),
                                       scalarAlignment(valueType)));
}

/// Replaces storage-buffer argument `arg` of `fn` by a PhysicalStorageBuffer
/// pointer converted from `address`: every pointer derived from it changes
/// storage class, and every load and store through one gets its alignment.
static LogicalResult bindByAddress(spirv::FuncOp fn, BlockArgument arg,
                                   Value address) {
  auto ptrType = dyn_cast<spirv::PointerType>(arg.getType());
  if (!ptrType)
    return fn.emitError("kernel argument ")
           << arg.getArgNumber() << " bound by device address is not a "
           << "buffer pointer after conversion";
  auto physical = [](Type type) -> Type {
    auto ptr = dyn_cast<spirv::PointerType>(type);
    if (!ptr || ptr.getStorageClass() != spirv::StorageClass::StorageBuffer)
      return type;
    return spirv::PointerType::get(ptr.getPointeeType(),
                                   spirv::StorageClass::PhysicalStorageBuffer);
  };
  OpBuilder b(address.getContext());
  b.setInsertionPointAfterValue(address);
  Value pointer = spirv::ConvertUToPtrOp::create(
      b, arg.getLoc(), physical(ptrType), address);
  SmallVector<Value> worklist;
  arg.replaceAllUsesWith(pointer);
  worklist.push_back(pointer);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<spirv::LoadOp>(user)) {
        setAligned(load, load.getType());
        continue;
      }
      if (auto store = dyn_cast<spirv::StoreOp>(user)) {
        if (use.get() != store.getPtr())
          return store.emitError("a pointer into a buffer bound by device "
                                 "address cannot be stored");
        setAligned(store, store.getValue().getType());
        continue;
      }
      if (isa<spirv::AccessChainOp, spirv::PtrAccessChainOp,
              spirv::InBoundsPtrAccessChainOp, spirv::BitcastOp>(user)) {
        for (Value result : user->getResults()) {
          Type retyped = physical(result.getType());
          if (retyped != result.getType()) {
            result.setType(retyped);
            worklist.push_back(result);
          }
        }
        continue;
      }
      // Atomics read and write through the pointer with its own scope.
      if (user->getDialect() == pointer.getDefiningOp()->getDialect() &&
          user->getName().getStringRef().starts_with("spirv.Atomic"))
        continue;
      return user->emitError("'")
             << user->getName()
             << "' on a buffer bound by device address is not supported; "
                "bind the argument as a descriptor "
                "(buffer-device-address=never)";
    }
  }
  return success();
}

/// Replaces the trailing push-constant arguments of a converted entry point
/// by loads from one push-constant block, and the arguments bound by device
/// address by pointers converted from their push-constant addresses.
static LogicalResult materializePushConstants(spirv::FuncOp fn) {
  auto offsets = fn->getAttrOfType<ArrayAttr>(kPushConstantFieldsAttr);
  if (!offsets)
    return success();
  auto addressArgs = fn->getAttrOfType<DenseI32ArrayAttr>(kAddressArgsAttr);
  fn->removeAttr(kPushConstantFieldsAttr);
  fn->removeAttr(kAddressArgsAttr);
  fn->removeAttr(kKernelABIAttrName);
  if (offsets.empty())
    return success();
  MLIRContext *ctx = fn.getContext();
  unsigned numArgs = fn.getNumArguments();
  unsigned first = numArgs - offsets.size();
  SmallVector<Type> members;
  SmallVector<spirv::StructType::OffsetInfo> memberOffsets;
  for (unsigned i = first; i < numArgs; ++i) {
    members.push_back(fn.getArgument(i).getType());
    memberOffsets.push_back(
        cast<IntegerAttr>(offsets[i - first]).getValue().getZExtValue());
  }
  auto structType = spirv::StructType::get(members, memberOffsets);
  auto ptrType =
      spirv::PointerType::get(structType, spirv::StorageClass::PushConstant);

  auto module = fn->getParentOfType<spirv::ModuleOp>();
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  std::string name = ("__kiln_push_constants_" + fn.getName()).str();
  auto var = spirv::GlobalVariableOp::create(mb, fn.getLoc(), ptrType, name);

  OpBuilder b = OpBuilder::atBlockBegin(&fn.getBody().front());
  Value base = spirv::AddressOfOp::create(b, fn.getLoc(), var);
  Type i32 = IntegerType::get(ctx, 32);
  llvm::BitVector erase(numArgs);
  std::map<int64_t, Value> fieldValues;
  for (unsigned i = first; i < numArgs; ++i) {
    Value idx = spirv::ConstantOp::create(
        b, fn.getLoc(), i32, b.getI32IntegerAttr(i - first));
    Value ptr = spirv::AccessChainOp::create(b, fn.getLoc(), base,
                                             ValueRange{idx});
    Value value = spirv::LoadOp::create(b, fn.getLoc(), ptr);
    fn.getArgument(i).replaceAllUsesWith(value);
    fieldValues[cast<IntegerAttr>(offsets[i - first]).getInt()] = value;
    erase.set(i);
  }
  if (addressArgs) {
    ArrayRef<int32_t> pairs = addressArgs.asArrayRef();
    for (size_t p = 0; p + 1 < pairs.size(); p += 2) {
      auto field = fieldValues.find(pairs[p + 1]);
      Value address = field == fieldValues.end() ? Value() : field->second;
      if (!address || unsigned(pairs[p]) >= first)
        return fn.emitError("kernel '")
               << fn.getName() << "' has a malformed device-address table";
      if (failed(bindByAddress(fn, fn.getArgument(pairs[p]), address)))
        return failure();
      erase.set(pairs[p]);
    }
    module.setAddressingModel(spirv::AddressingModel::PhysicalStorageBuffer64);
  }
  return fn.eraseArguments(erase);
}

//===----------------------------------------------------------------------===//
// Conversion and its diagnostics
//===----------------------------------------------------------------------===//

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
    Type resultType = getTypeConverter()->convertType(op.getShuffleResult()
                                                          .getType());
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
          Value valid = spirv::ConstantOp::create(rewriter, loc,
                                                  rewriter.getI1Type(),
                                                  rewriter.getBoolAttr(true));
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
    Value moved = spirv::BitwiseAndOp::create(
        rewriter, loc, spirv::IAddOp::create(rewriter, loc, lane, c(offset)),
        c(width - 1));
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
    Value ptr = spirv::getElementPtr(converter, memrefType,
                                     adaptor.getMemref(), adaptor.getIndices(),
                                     loc, rewriter);
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
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{type},
                                     ValueRange{init});
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

static void populatePatterns(const SPIRVTypeConverter &typeConverter,
                             ScfToSPIRVContext &scfContext,
                             RewritePatternSet &patterns) {
  populateGPUToSPIRVPatterns(typeConverter, patterns);
  patterns.add<SubgroupReduceToGroupNonUniform, ShuffleToGroupNonUniform,
               RotateToGroupNonUniform, BroadcastToGroupNonUniform,
               GenericAtomicRMWToCompareExchange>(
      typeConverter, patterns.getContext(), /*benefit=*/2);
  populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
  cf::populateControlFlowToSPIRVPatterns(typeConverter, patterns);
  arith::populateArithToSPIRVPatterns(typeConverter, patterns);
  populateMathToSPIRVPatterns(typeConverter, patterns);
  populateMemRefToSPIRVPatterns(typeConverter, patterns);
  populateFuncToSPIRVPatterns(typeConverter, patterns);
  // The debug printf stubs (LowerPrintf.h) are func.funcs.
  populateBuiltinFuncToSPIRVPatterns(typeConverter, patterns);
  populateVectorToSPIRVPatterns(typeConverter, patterns);
  index::populateIndexToSPIRVPatterns(typeConverter, patterns);
  ub::populateUBToSPIRVConversionPatterns(typeConverter, patterns);
  kiln::populateArithMathToSPIRVPatterns(typeConverter, patterns);
}

/// Refuses memref.generic_atomic_rmw on elements SPIR-V's compare-exchange
/// cannot take, at the op, before conversion.
static LogicalResult checkGenericAtomics(gpu::GPUFuncOp fn) {
  WalkResult result = fn.walk([&](memref::GenericAtomicRMWOp op) {
    Type element = op.getMemref().getType().getElementType();
    if (element.isInteger(32) || element.isInteger(64))
      return WalkResult::advance();
    op.emitOpError("on ")
        << element
        << " elements has no Vulkan lowering: SPIR-V's compare-exchange "
           "takes 32- and 64-bit integers only; use memref.atomic_rmw "
           "(addf where the target env has AtomicFloat32AddEXT) or an "
           "integer buffer";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Refuses, at the op and with the reason and a way out, the ops of a kernel
/// that no SPIR-V target of Kiln's (Vulkan, spirv-cpu) can run, before the
/// conversion would report them only as unconverted.
static LogicalResult checkUnsupportedOps(gpu::GPUFuncOp fn) {
  auto refuse = [](Operation *op, StringRef why) {
    op->emitError("'") << op->getName()
                       << "' cannot run on Kiln's SPIR-V targets (Vulkan, "
                          "spirv-cpu): "
                       << why;
    return WalkResult::interrupt();
  };
  auto kernelMemory = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return false;
    // Integer spaces as the Vulkan mapping reads them (3 is workgroup).
    std::optional<spirv::StorageClass> storage =
        kiln::mapMemorySpace(memref.getMemorySpace());
    return storage && (*storage == spirv::StorageClass::Workgroup ||
                       *storage == spirv::StorageClass::Function ||
                       *storage == spirv::StorageClass::Private);
  };
  WalkResult result = fn.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::ReallocOp>(op) &&
        !kernelMemory(op->getResult(0).getType()))
      return refuse(op, "a Vulkan kernel cannot allocate global memory; pass "
                        "a buffer in, or use memref.alloca (private memory) "
                        "or workgroup memory");
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
        dealloc && !kernelMemory(dealloc.getMemref().getType()))
      return refuse(op, "a Vulkan kernel cannot allocate or free global "
                        "memory; pass a buffer in");
    if (isa<cf::AssertOp>(op))
      return refuse(op, "a Vulkan kernel cannot stop the program; write a "
                        "flag to a buffer and check it on the host, or use "
                        "--target=cuda");
    if (isa<gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterBlockIdOp,
            gpu::ClusterDimBlocksOp>(op))
      return refuse(op, "Vulkan has no thread-block clusters (CUDA's, from "
                        "sm_90): use --target=cuda");
    if (isa<memref::DmaStartOp, memref::DmaWaitOp>(op))
      return refuse(op, "kernels have no DMA engine");
    if (isa<memref::ExtractAlignedPointerAsIndexOp>(op))
      return refuse(op, "Vulkan kernels have no addresses of their buffers "
                        "(logical addressing)");
    if (isa<memref::MemorySpaceCastOp>(op))
      return refuse(op, "SPIR-V's logical addressing has no generic "
                        "pointers; keep the memref in its memory space");
    if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op)) {
      using K = arith::AtomicRMWKind;
      K kind = rmw.getKind();
      if (isa<FloatType>(rmw.getValue().getType()) && kind != K::addf &&
          kind != K::assign) {
        rmw.emitError("'memref.atomic_rmw' ")
            << arith::stringifyAtomicRMWKind(kind) << " on "
            << rmw.getValue().getType()
            << " cannot run on Kiln's SPIR-V targets (Vulkan, spirv-cpu): "
               "SPIR-V's float atomics are add and exchange, and its "
               "compare-exchange takes integers only; reduce in workgroup "
               "memory first (gpu.subgroup_reduce, gpu.all_reduce), use an "
               "integer atomic, or --target=cuda";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Converts `clone` (a gpu.module) into a spirv.module in place.
namespace {
/// The conversion of one clone: its target, types and patterns.
struct CloneConversion {
  std::unique_ptr<ConversionTarget> target;
  std::unique_ptr<SPIRVTypeConverter> typeConverter;
  ScfToSPIRVContext scfContext;
  std::unique_ptr<FrozenRewritePatternSet> patterns;
};
} // namespace

/// Gives `clone` the target env and its memrefs storage classes, and sets up
/// its conversion.
static std::unique_ptr<CloneConversion> prepareClone(gpu::GPUModuleOp clone,
                                                     spirv::TargetEnvAttr env,
                                                     bool use64BitIndex) {
  MLIRContext *ctx = clone.getContext();
  clone->setAttr(spirv::getTargetEnvAttrName(), env);
  spirv::MemorySpaceToStorageClassConverter memorySpaces(mapMemorySpace);
  spirv::convertMemRefTypesAndAttrs(clone, memorySpaces);
  markVectorMemoryTypes(clone);

  auto c = std::make_unique<CloneConversion>();
  c->target = SPIRVConversionTarget::get(env);
  SPIRVConversionOptions options;
  options.use64bitIndex = use64BitIndex;
  c->typeConverter = std::make_unique<SPIRVTypeConverter>(env, options);
  RewritePatternSet patterns(ctx);
  populatePatterns(*c->typeConverter, c->scfContext, patterns);
  populateVectorMemoryPatterns(*c->typeConverter, patterns);
  c->patterns = std::make_unique<FrozenRewritePatternSet>(std::move(patterns));
  return c;
}

/// Converts `clone` for `env`: what explainFailures tries again with a
/// permissive target env.
static LogicalResult convertClone(gpu::GPUModuleOp clone,
                                  spirv::TargetEnvAttr env,
                                  bool use64BitIndex) {
  std::unique_ptr<CloneConversion> c = prepareClone(clone, env, use64BitIndex);
  return applyFullConversion(clone.getOperation(), *c->target, *c->patterns);
}

namespace {
/// What a converted op needs that a target env does not have.
struct Missing {
  llvm::SetVector<spirv::Capability> capabilities;
  llvm::SetVector<spirv::Extension> extensions;
  std::optional<spirv::Version> version;
  bool empty() const {
    return capabilities.empty() && extensions.empty() && !version;
  }
};
} // namespace

static void collectMissing(Operation *op, const spirv::TargetEnv &target,
                           Missing &missing) {
  auto addCaps = [&](ArrayRef<ArrayRef<spirv::Capability>> caps) {
    for (ArrayRef<spirv::Capability> anyOf : caps)
      if (!anyOf.empty() && !target.allows(anyOf))
        missing.capabilities.insert(anyOf.front());
  };
  auto addExts = [&](ArrayRef<ArrayRef<spirv::Extension>> exts) {
    for (ArrayRef<spirv::Extension> anyOf : exts)
      if (!anyOf.empty() && !target.allows(anyOf))
        missing.extensions.insert(anyOf.front());
  };
  // Float atomic add: the capability of the element's width, where the op
  // lists all three as alternatives.
  if (auto add = dyn_cast<spirv::EXTAtomicFAddOp>(op)) {
    unsigned width = add.getType().getIntOrFloatBitWidth();
    spirv::Capability cap = width == 16 ? spirv::Capability::AtomicFloat16AddEXT
                            : width == 64
                                ? spirv::Capability::AtomicFloat64AddEXT
                                : spirv::Capability::AtomicFloat32AddEXT;
    if (!target.allows(cap))
      missing.capabilities.insert(cap);
  } else if (auto q = dyn_cast<spirv::QueryCapabilityInterface>(op)) {
    addCaps(q.getCapabilities());
  }
  if (auto q = dyn_cast<spirv::QueryExtensionInterface>(op))
    addExts(q.getExtensions());
  if (auto q = dyn_cast<spirv::QueryMinVersionInterface>(op))
    if (std::optional<spirv::Version> v = q.getMinVersion())
      if (*v > target.getVersion())
        missing.version = *v;
  auto addType = [&](Type type) {
    auto spvType = dyn_cast<spirv::SPIRVType>(type);
    if (!spvType)
      return;
    SmallVector<ArrayRef<spirv::Capability>> caps;
    SmallVector<ArrayRef<spirv::Extension>> exts;
    spvType.getCapabilities(caps);
    spvType.getExtensions(exts);
    addCaps(caps);
    addExts(exts);
  };
  for (Type t : op->getResultTypes())
    addType(t);
  for (Type t : op->getOperandTypes())
    addType(t);
  // Kernel arguments: the buffers' types are on the function.
  if (auto fn = dyn_cast<spirv::FuncOp>(op))
    for (Type t : fn.getFunctionType().getInputs())
      addType(t);
}

/// Explains why ops of the gpu.module in `pristine` (a copy of the clone
/// before conversion)
/// failed to lower for `env`: converts it for a target env with every
/// capability and reports what the ops at the failed locations need.
static void explainFailures(ModuleOp pristine,
                            spirv::TargetEnvAttr env, bool use64BitIndex,
                            ArrayRef<std::pair<Location, std::string>> failed) {
  MLIRContext *ctx = pristine.getContext();
  bool permissiveOk;
  {
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    auto copy = *pristine.getOps<gpu::GPUModuleOp>().begin();
    permissiveOk = succeeded(
        convertClone(copy, getPermissiveTargetEnv(env), use64BitIndex));
  }
  spirv::TargetEnv target(env);
  std::string envText;
  {
    llvm::raw_string_ostream os(envText);
    os << "SPIR-V " << spirv::stringifyVersion(env.getVersion());
  }
  for (const auto &failure : failed) {
    Location loc = failure.first;
    const std::string &opName = failure.second;
    Missing missing;
    if (permissiveOk)
      pristine->walk([&](Operation *op) {
        if (op->getLoc() == loc && op->getDialect() &&
            op->getDialect()->getNamespace() == "spirv")
          collectMissing(op, target, missing);
      });
    InFlightDiagnostic diag = emitError(loc) << "'" << opName << "'";
    if (missing.empty()) {
      diag << " has no SPIR-V lowering in Kiln (the Vulkan and spirv-cpu "
              "targets) for this target env ("
           << envText << ")";
      continue;
    }
    diag << " cannot be lowered to SPIR-V for this target env (" << envText
         << "): it needs";
    SmallVector<std::string> needs;
    if (missing.version)
      needs.push_back(
          ("SPIR-V " + spirv::stringifyVersion(*missing.version)).str());
    for (spirv::Capability c : missing.capabilities)
      needs.push_back(("capability " + spirv::stringifyCapability(c)).str());
    for (spirv::Extension e : missing.extensions)
      needs.push_back(("extension " + spirv::stringifyExtension(e)).str());
    diag << " " << llvm::join(needs, ", ") << "; " << describeTargetEnv(env);
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The SPIR-V loop control that an scf.for's `loop_annotation` (an
/// #llvm.loop_annotation, which the NVVM path hands to LLVM) asks for:
/// Unroll for a full or counted unroll, DontUnroll for a disabled one.
static std::optional<spirv::LoopControl> loopControlOf(scf::ForOp loop) {
  auto annotation =
      loop->getAttrOfType<LLVM::LoopAnnotationAttr>("loop_annotation");
  LLVM::LoopUnrollAttr unroll =
      annotation ? annotation.getUnroll() : LLVM::LoopUnrollAttr();
  if (!unroll)
    return std::nullopt;
  if (unroll.getDisable() && unroll.getDisable().getValue())
    return spirv::LoopControl::DontUnroll;
  if ((unroll.getFull() && unroll.getFull().getValue()) || unroll.getCount())
    return spirv::LoopControl::Unroll;
  return std::nullopt;
}

/// Makes the storage buffers of `fn` (a kernel of the clone) that qualify
/// arrays of vectors (VectorMemory.h) and records each one's base alignment
/// in the kernel ABI of the original kernel in `gpuModule`, which the
/// container carries to the runtime. Arguments bound by device address stay
/// as they are.
static LogicalResult vectorizeKernelBuffers(gpu::GPUFuncOp fn,
                                            gpu::GPUModuleOp gpuModule) {
  SmallVector<unsigned> byAddress;
  if (auto pairs = fn->getAttrOfType<DenseI32ArrayAttr>(kAddressArgsAttr))
    for (int64_t i = 0; i + 1 < pairs.size(); i += 2)
      byAddress.push_back(unsigned(pairs[i]));
  SmallVector<VectorizedBuffer> buffers =
      vectorizeStorageBuffers(fn, byAddress);
  if (buffers.empty())
    return success();
  // Not lookupSymbol: the clone, nested in the GPU module, may have the
  // kernel's name.
  gpu::GPUFuncOp original;
  for (auto candidate : gpuModule.getOps<gpu::GPUFuncOp>())
    if (candidate.getName() == fn.getName())
      original = candidate;
  if (!original)
    return fn.emitError("kernel '")
           << fn.getName() << "' has no original in its GPU module";
  FailureOr<KernelABI> abi = KernelABI::read(original);
  if (failed(abi))
    return failure();
  for (const VectorizedBuffer &buffer : buffers)
    for (ArgInfo &a : abi->args)
      if (container::isDescriptorKind(a.kind) && a.set == buffer.set &&
          a.binding == buffer.binding)
        a.baseAlignment = buffer.vectorBytes;
  original->setAttr(kKernelABIAttrName, abi->toAttr(original));
  return success();
}

namespace {
class ConvertGPUToSPIRVPass
    : public kiln::impl::KilnConvertGPUToSPIRVBase<ConvertGPUToSPIRVPass> {
public:
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<affine::AffineDialect, vector::VectorDialect,
                    scf::SCFDialect, cf::ControlFlowDialect,
                    ub::UBDialect>();
  }
  void runOnOperation() override;

private:
  LogicalResult convertModule(gpu::GPUModuleOp gpuModule,
                              spirv::TargetEnvAttr env);
};
} // namespace

/// The index width of the kernels of `gpuModule` (their `kiln.abi`'s
/// index_bits), which must agree; 32 without kernels.
static FailureOr<bool> moduleUses64BitIndex(gpu::GPUModuleOp gpuModule) {
  std::optional<unsigned> bits;
  for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
    if (!fn.isKernel())
      continue;
    FailureOr<KernelABI> abi = KernelABI::read(fn);
    if (failed(abi))
      return failure();
    if (bits && *bits != abi->indexBits)
      return fn.emitError("kernel '")
             << fn.getName() << "' has " << abi->indexBits
             << "-bit index push constants, but another kernel of GPU "
                "module '"
             << gpuModule.getName() << "' has " << *bits
             << "-bit ones; one SPIR-V module has one index width";
    bits = abi->indexBits;
  }
  return bits.value_or(32) == 64;
}

LogicalResult ConvertGPUToSPIRVPass::convertModule(gpu::GPUModuleOp gpuModule,
                                                   spirv::TargetEnvAttr env) {
  MLIRContext *ctx = &getContext();
  FailureOr<bool> indexIs64 = moduleUses64BitIndex(gpuModule);
  if (failed(indexIs64))
    return failure();
  bool use64BitIndex = *indexIs64;
  // Work on a clone nested in the original: the host's launches keep
  // verifying against the original gpu.funcs.
  OpBuilder b = OpBuilder::atBlockBegin(gpuModule.getBody());
  auto clone = cast<gpu::GPUModuleOp>(b.clone(*gpuModule));
  llvm::scope_exit eraseClone([&] {
    if (clone)
      clone.erase();
  });
  for (auto fn : clone.getOps<gpu::GPUFuncOp>()) {
    if (failed(liftControlFlow(fn)))
      return failure();
    lowerIndexSwitches(fn);
  }
  for (auto fn : clone.getOps<gpu::GPUFuncOp>()) {
    if (!fn.isKernel())
      continue;
    if (failed(checkNarrowFloatStorage(fn, env)) ||
        failed(checkUnsupportedOps(fn)) || failed(checkGenericAtomics(fn)) ||
        failed(materializeAttributions(fn)))
      return failure();
    FailureOr<KernelABI> abi = KernelABI::read(fn);
    if (failed(abi) || failed(rewriteKernelSignature(fn, *abi)))
      return failure();
    // The clone's signature is the converted one now; the original kernel
    // keeps the ABI.
    fn->removeAttr(kKernelABIAttrName);
  }
  for (auto fn : clone.getOps<gpu::GPUFuncOp>())
    widenEmulatedIntegerOps(fn, env);

  // Fold static subviews into accesses and clean up index arithmetic, so
  // that vector accesses to workgroup memory show their alignment.
  OpPassManager pm(gpu::GPUModuleOp::getOperationName());
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  if (failed(runPipeline(pm, clone)))
    return failure();
  for (auto fn : clone.getOps<gpu::GPUFuncOp>()) {
    vectorizeWorkgroupMemory(fn);
    if (fn.isKernel() && failed(vectorizeKernelBuffers(fn, gpuModule)))
      return failure();
    scalarizeVectorAccesses(fn);
  }
  OpPassManager tidy(gpu::GPUModuleOp::getOperationName());
  tidy.addPass(createCanonicalizerPass());
  tidy.addPass(createCSEPass());
  if (failed(runPipeline(tidy, clone)))
    return failure();
  SmallVector<std::string> printfFormats;
  if (failed(lowerPrintfToStubs(clone, env, use64BitIndex, printfFormats)))
    return failure();

  // Keep an unconverted copy, outside the IR, to explain failures with.
  OwningOpRef<ModuleOp> pristine = ModuleOp::create(clone.getLoc());
  OpBuilder::atBlockBegin(pristine->getBody()).clone(*clone);

  // Loop annotations (what `#pragma unroll` is in CUDA C++) for the
  // spirv.mlir.loops the conversion makes of their scf.for. The conversion
  // gives a loop, and what it creates for it, the scf.for's location; an
  // annotated loop's is made unique for the conversion (loops may share
  // one) and is restored after it.
  DenseMap<Location, std::pair<Location, spirv::LoopControl>> loopControls;
  clone.walk([&](scf::ForOp loop) {
    std::optional<spirv::LoopControl> control = loopControlOf(loop);
    if (!control)
      return;
    Location marker = NameLoc::get(
        StringAttr::get(ctx, "kiln.loop_control." +
                                 Twine(unsigned(loopControls.size()))),
        loop.getLoc());
    loopControls.try_emplace(marker, loop.getLoc(), *control);
    loop->setLoc(marker);
  });

  // Convert. The conversion's own messages are held back: when it fails,
  // its analysis of an unconverted copy says which ops cannot be converted,
  // and each is reported at the op with what its lowering would need.
  LogicalResult converted = failure();
  SmallVector<Diagnostic> conversionDiagnostics;
  {
    ScopedDiagnosticHandler holdBack(ctx, [&](Diagnostic &diagnostic) {
      conversionDiagnostics.push_back(std::move(diagnostic));
      return success();
    });
    std::unique_ptr<CloneConversion> conversion =
        prepareClone(clone, env, use64BitIndex);
    converted = applyFullConversion(clone.getOperation(), *conversion->target,
                                    *conversion->patterns);
  }
  if (failed(converted)) {
    OwningOpRef<ModuleOp> analyzed = pristine->clone();
    auto copy = *analyzed->getOps<gpu::GPUModuleOp>().begin();
    std::unique_ptr<CloneConversion> analysis =
        prepareClone(copy, env, use64BitIndex);
    // A full conversion: every op the target does not call legal must be
    // converted. A kernel whose signature cannot be converted is one error,
    // not one per op that uses the argument. When the analysis itself
    // fails, the module is what failed.
    FailureOr<SmallVector<Operation *>> unconvertible = findUnconvertibleOps(
        copy, *analysis->target, *analysis->patterns,
        [&](Operation *op) { return !analysis->target->isLegal(op); });
    if (failed(unconvertible))
      unconvertible = SmallVector<Operation *>{copy.getOperation()};
    SmallVector<std::pair<Location, std::string>> failedOps;
    for (Operation *op : *unconvertible)
      failedOps.push_back({op->getLoc(), op->getName().getStringRef().str()});
    if (!failedOps.empty()) {
      explainFailures(*pristine, env, use64BitIndex, failedOps);
      return failure();
    }
    for (Diagnostic &diagnostic : conversionDiagnostics)
      ctx->getDiagEngine().emit(std::move(diagnostic));
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName() << "' failed to lower to SPIR-V";
  }
  for (Diagnostic &diagnostic : conversionDiagnostics)
    ctx->getDiagEngine().emit(std::move(diagnostic));

  // The clone is a spirv.module now; give its entry points push constants.
  spirv::ModuleOp spvModule;
  for (auto m : gpuModule.getOps<spirv::ModuleOp>())
    spvModule = m;
  clone = nullptr; // Replaced by the conversion.
  if (!spvModule)
    return gpuModule.emitError("conversion left no spirv.module");
  // Upstream picks PhysicalStorageBuffer64 whenever the target env allows
  // it, which would make every kernel need bufferDeviceAddress; only a
  // module with arguments bound by address gets it (below).
  spvModule.setAddressingModel(spirv::AddressingModel::Logical);
  if (!printfFormats.empty())
    spvModule->setAttr(kDebugPrintfFormatsAttr,
                       Builder(ctx).getStrArrayAttr(llvm::to_vector_of<StringRef>(
                           printfFormats)));
  for (auto fn : llvm::make_early_inc_range(spvModule.getOps<spirv::FuncOp>()))
    if (failed(materializePushConstants(fn)))
      return failure();
  if (!loopControls.empty())
    spvModule.walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        if (auto it = loopControls.find(arg.getLoc()); it != loopControls.end())
          arg.setLoc(it->second.first);
      for (Operation &op : *block) {
        auto it = loopControls.find(op.getLoc());
        if (it == loopControls.end())
          continue;
        if (auto loop = dyn_cast<spirv::LoopOp>(op))
          loop.setLoopControl(it->second.second);
        op.setLoc(it->second.first);
      }
    });
  return success();
}

void ConvertGPUToSPIRVPass::runOnOperation() {
  SmallVector<gpu::GPUModuleOp> modules;
  getOperation().walk([&](gpu::GPUModuleOp m) {
    if (spirv::lookupTargetEnv(m))
      modules.push_back(m);
  });
  bool failed = false;
  for (gpu::GPUModuleOp m : modules)
    failed |= mlir::failed(convertModule(m, spirv::lookupTargetEnv(m)));
  if (failed)
    signalPassFailure();
}
