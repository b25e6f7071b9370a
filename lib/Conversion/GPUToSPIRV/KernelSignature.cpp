//===- KernelSignature.cpp - Kernel signatures for push constants ---------===//
//
// The clone of each kernel gets the signature of Kiln's push-constant ABI
// (docs/abi.md): scalars and memref metadata become trailing push-constant
// fields, memrefs with a dynamic shape or layout flat buffers whose uses are
// rewritten to index them. PushConstants.cpp turns the fields into one
// push-constant block after the conversion.
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"

#include "kiln/Target/SPIRV/Serialization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"

#include <map>

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
      auto repl = memref::AtomicRMWOp::create(
          b, loc, rmw.getKind(), rmw.getValue(), flat, ValueRange{idx});
      rmw.replaceAllUsesWith(repl.getResult());
      rmw.erase();
      return success();
    }
    if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(user)) {
      Value idx = linearize(b, loc, meta, rmw.getIndices());
      auto repl =
          memref::GenericAtomicRMWOp::create(b, loc, flat, ValueRange{idx});
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

/// Appends to `fn` an argument for every push-constant field of `abi`, in
/// offset order; records each in `fieldValues` by offset and the offsets in
/// `fieldOffsets`.
static LogicalResult
insertPushConstantFields(gpu::GPUFuncOp fn, const KernelABI &abi, OpBuilder &b,
                         std::map<unsigned, Value> &fieldValues,
                         SmallVectorImpl<Attribute> &fieldOffsets) {
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  unsigned numOriginal = abi.args.size();
  StringRef varABIName = spirv::getInterfaceVarABIAttrName();
  auto placeholderABI = spirv::getInterfaceVarABIAttr(0, 0, std::nullopt, ctx);

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
  for (auto [offset, type] : fields) {
    unsigned pos = fn.getNumArguments();
    if (failed(fn.insertArgument(
            pos, type,
            DictionaryAttr::get(ctx,
                                {NamedAttribute(varABIName, placeholderABI)}),
            loc)))
      return failure();
    fieldValues[offset] = fn.getArgument(pos);
    fieldOffsets.push_back(b.getI32IntegerAttr(offset));
  }
  return success();
}

/// Whether the size of dynamic memref argument `i` is read from its binding
/// (OpArrayLength, as glslc reads `a.length()`) rather than from the push
/// constants: a one-dimensional memref with the identity layout bound by
/// descriptor, which the runtime binds from its first element to its last
/// byte and, empty, with a range under one element (docs/abi.md, "Sizes
/// read from the binding"). Its elements must be at least 2 bytes (an empty
/// binding's range of 1 byte reads as length 0 then) and its uses plain
/// scalar accesses, so that the buffer stays an array of its elements
/// (vector accesses may make it an array of vectors, whose length is the
/// size divided by the width), one of them memref.dim; and the index push
/// constants 32-bit, as OpArrayLength's result is. On lavapipe the pushed
/// size costs about 4 instructions more per 8-wide block of invocations
/// than the binding's length (benchmarks/README.md, "Shader
/// instructions").
static bool sizeFromBinding(gpu::GPUFuncOp fn, const KernelABI &abi,
                            unsigned i) {
  const ArgInfo &a = abi.args[i];
  auto type = cast<MemRefType>(fn.getArgument(i).getType());
  if (a.kind != ArgKind::IdentityMemRef || a.rank != 1 ||
      !type.isDynamicDim(0) || abi.indexBits != 32 ||
      !type.getLayout().isIdentity())
    return false;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 16)
    return false;
  bool readsSize = false;
  for (Operation *user : fn.getArgument(i).getUsers()) {
    if (!isa<memref::LoadOp, memref::StoreOp, memref::DimOp,
             memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(user))
      return false;
    readsSize |= isa<memref::DimOp>(user);
  }
  return readsSize;
}

/// A call of a new array-length stub (kiln/Target/SPIRV/Serialization.h)
/// on `flat`, whose body returns `pushed`: OpArrayLength of the buffer once
/// serialized, the pushed size to anything that reads the IR instead.
static Value callArrayLengthStub(OpBuilder &b, gpu::GPUFuncOp fn,
                                 BlockArgument flat, Value pushed) {
  auto module = fn->getParentOfType<gpu::GPUModuleOp>();
  SymbolTable symbols(module);
  std::string name;
  for (unsigned k = 0;; ++k) {
    name = (kArrayLengthStubPrefix + Twine(k)).str();
    if (!symbols.lookup(name))
      break;
  }
  Location loc = fn.getLoc();
  OpBuilder stubBuilder = OpBuilder::atBlockEnd(module.getBody());
  auto stub =
      func::FuncOp::create(stubBuilder, loc, name,
                           b.getFunctionType({flat.getType(), pushed.getType()},
                                             {pushed.getType()}));
  stub.setPrivate();
  Block *body = stub.addEntryBlock();
  OpBuilder bodyBuilder = OpBuilder::atBlockBegin(body);
  func::ReturnOp::create(bodyBuilder, loc, body->getArgument(1));
  return func::CallOp::create(b, loc, stub, ValueRange{flat, pushed})
      .getResult(0);
}

/// Rewrites the uses of dynamic memref argument `i` of `fn` into accesses of
/// its flat buffer `flat`, with the metadata from the push-constant fields in
/// `fieldValues`.
static LogicalResult
flattenMemRefArgument(gpu::GPUFuncOp fn, const KernelABI &abi, unsigned i,
                      BlockArgument flat, OpBuilder &b,
                      std::map<unsigned, Value> &fieldValues) {
  Location loc = fn.getLoc();
  unsigned ib = abi.indexBytes();
  const ArgInfo &a = abi.args[i];
  auto index = [&](unsigned f) -> Value {
    return arith::IndexCastOp::create(
        b, loc, b.getIndexType(), fieldValues[abi.metadataOffset(i) + f * ib]);
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
  bool fromBinding = sizeFromBinding(fn, abi, i);
  for (unsigned d = 0; d < a.rank; ++d) {
    meta.sizes.push_back(known(type.getDimSize(d), 1 + d));
    meta.strides.push_back(known(staticStrides[d], 1 + a.rank + d));
  }
  if (fromBinding)
    meta.sizes[0] = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        callArrayLengthStub(b, fn, flat,
                            fieldValues[abi.metadataOffset(i) + ib]));
  if (failed(Flattener(flat).rewrite(fn.getArgument(i), meta)))
    return failure();
  return success();
}

/// Rewrites the clone of a kernel so that scalars and memref metadata arrive
/// as trailing push-constant fields and dynamic memrefs as flat buffers.
LogicalResult kiln::rewriteKernelSignature(gpu::GPUFuncOp fn,
                                           const KernelABI &abi) {
  MLIRContext *ctx = fn.getContext();
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
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                        AffineMap(), type.getMemorySpace());
    unsigned pos = fn.getNumArguments();
    if (failed(fn.insertArgument(pos, flatType, fn.getArgAttrDict(i),
                                 fn.getArgument(i).getLoc())))
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
  std::map<unsigned, Value> fieldValues;
  SmallVector<Attribute> fieldOffsets;
  if (failed(insertPushConstantFields(fn, abi, b, fieldValues, fieldOffsets)))
    return failure();

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
    if (failed(flattenMemRefArgument(fn, abi, argIndex, flat, b, fieldValues)))
      return failure();
    erase.set(argIndex);
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
