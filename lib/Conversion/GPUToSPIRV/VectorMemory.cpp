//===- VectorMemory.cpp - Memory as arrays of vectors ---------------------===//
//
// Workgroup allocations and storage-buffer arguments read and written with
// aligned vector accesses, as arrays of vectors (VectorMemory.h).
//
//===----------------------------------------------------------------------===//

#include "VectorMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

/// True when `v` is provably a multiple of `w` (a power of two): constants,
/// products with a multiple, sums and differences of multiples, shifts by
/// enough bits, and loop induction variables whose start and step are.
static bool isMultipleOf(Value v, int64_t w, unsigned depth = 8) {
  if (depth == 0)
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c % w == 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    return loop && arg == loop.getInductionVar() &&
           isMultipleOf(loop.getLowerBound(), w, depth - 1) &&
           isMultipleOf(loop.getStep(), w, depth - 1);
  }
  Operation *def = v.getDefiningOp();
  auto both = [&] {
    return isMultipleOf(def->getOperand(0), w, depth - 1) &&
           isMultipleOf(def->getOperand(1), w, depth - 1);
  };
  if (isa<arith::MulIOp>(def))
    return isMultipleOf(def->getOperand(0), w, depth - 1) ||
           isMultipleOf(def->getOperand(1), w, depth - 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::RemUIOp, arith::RemSIOp>(def))
    return both();
  if (auto shl = dyn_cast<arith::ShLIOp>(def)) {
    std::optional<int64_t> bits = getConstantIntValue(shl.getRhs());
    return (bits && *bits >= 0 && *bits < 62 &&
            (int64_t(1) << *bits) % w == 0) ||
           isMultipleOf(shl.getLhs(), w, depth - 1);
  }
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return isMultipleOf(select.getTrueValue(), w, depth - 1) &&
           isMultipleOf(select.getFalseValue(), w, depth - 1);
  return false;
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `v / w` for a `v` that isMultipleOf proved a multiple of `w`, written so
/// that `x * 4` divided by 4 is `x` again; an arithmetic shift otherwise,
/// exact for any multiple.
static Value divideExact(OpBuilder &b, Location loc, Value v, int64_t w,
                         unsigned depth = 8) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return indexConstant(b, loc, *c / w);
  if (Operation *def = v.getDefiningOp(); def && depth > 0) {
    if (auto mul = dyn_cast<arith::MulIOp>(def)) {
      for (auto [factor, other] : {std::pair(mul.getRhs(), mul.getLhs()),
                                   std::pair(mul.getLhs(), mul.getRhs())}) {
        std::optional<int64_t> c = getConstantIntValue(factor);
        if (c && *c % w == 0)
          return *c == w ? other
                         : arith::MulIOp::create(b, loc, other,
                                                 indexConstant(b, loc, *c / w))
                               .getResult();
      }
    }
    if (isa<arith::AddIOp, arith::SubIOp>(def) &&
        isMultipleOf(def->getOperand(0), w) &&
        isMultipleOf(def->getOperand(1), w)) {
      Value lhs = divideExact(b, loc, def->getOperand(0), w, depth - 1);
      Value rhs = divideExact(b, loc, def->getOperand(1), w, depth - 1);
      if (isa<arith::AddIOp>(def))
        return arith::AddIOp::create(b, loc, lhs, rhs);
      return arith::SubIOp::create(b, loc, lhs, rhs);
    }
  }
  return arith::ShRSIOp::create(b, loc, v,
                                indexConstant(b, loc, llvm::Log2_64(w)));
}

/// Splits innermost index `j` into (j / w, j % w) with floor semantics:
/// `m + c` with `m` a multiple and `0 <= c < w` a constant gives (m / w, c).
static std::pair<Value, Value> splitIndex(OpBuilder &b, Location loc, Value j,
                                          int64_t w) {
  if (std::optional<int64_t> c = getConstantIntValue(j))
    return {indexConstant(b, loc, llvm::divideFloorSigned(*c, w)),
            indexConstant(b, loc, *c - llvm::divideFloorSigned(*c, w) * w)};
  if (isMultipleOf(j, w))
    return {divideExact(b, loc, j, w), indexConstant(b, loc, 0)};
  if (auto add = j.getDefiningOp<arith::AddIOp>()) {
    for (auto [part, rest] : {std::pair(add.getRhs(), add.getLhs()),
                              std::pair(add.getLhs(), add.getRhs())}) {
      std::optional<int64_t> c = getConstantIntValue(part);
      if (c && *c >= 0 && *c < w && isMultipleOf(rest, w))
        return {divideExact(b, loc, rest, w), indexConstant(b, loc, *c)};
    }
  }
  Value vectorIndex = arith::ShRSIOp::create(
      b, loc, j, indexConstant(b, loc, llvm::Log2_64(w)));
  Value component =
      arith::AndIOp::create(b, loc, j, indexConstant(b, loc, w - 1));
  return {vectorIndex, component};
}

/// True for the element types kept as arrays of vectors: 32-bit signless
/// integers and floats.
static bool isVectorElement(Type type) {
  return type.isIntOrFloat() && type.getIntOrFloatBitWidth() == 32 &&
         (!isa<IntegerType>(type) || type.isSignlessInteger());
}

/// The width all vector accesses of `memref` (of type `type`) agree on, if
/// it qualifies: only loads and stores use it, at least one is a vector
/// access, each vector access is 2 or 4 wide at an innermost index that is
/// a multiple of the width (or, when `trustAlignment`, one whose
/// `alignment` is at least the vector's bytes), and the width divides the
/// innermost dimension (or that is the dynamic one of a flat buffer).
static std::optional<int64_t> planWidth(Value memref, MemRefType type,
                                        bool trustAlignment) {
  if (!type.getLayout().isIdentity() || type.getRank() == 0 ||
      !isVectorElement(type.getElementType()))
    return std::nullopt;
  bool flat = type.getRank() == 1 && type.isDynamicDim(0);
  if (!flat && !type.hasStaticShape())
    return std::nullopt;
  unsigned elementBytes = type.getElementTypeBitWidth() / 8;
  std::optional<int64_t> width;
  auto vectorAccess = [&](VectorType vector, ValueRange indices,
                          std::optional<uint64_t> alignment) {
    if (vector.getRank() != 1 || vector.isScalable())
      return false;
    int64_t w = vector.getNumElements();
    if ((w != 2 && w != 4) || (width && *width != w))
      return false;
    width = w;
    return isMultipleOf(indices.back(), w) ||
           (trustAlignment && alignment &&
            *alignment >= uint64_t(w) * elementBytes);
  };
  for (OpOperand &use : memref.getUses()) {
    Operation *user = use.getOwner();
    bool ok = false;
    if (isa<memref::LoadOp>(user))
      ok = true;
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      ok = use.get() == store.getMemRef();
    else if (auto load = dyn_cast<vector::LoadOp>(user))
      ok = vectorAccess(load.getVectorType(), load.getIndices(),
                        load.getAlignment());
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      ok = use.get() == store.getBase() &&
           vectorAccess(store.getVectorType(), store.getIndices(),
                        store.getAlignment());
    if (!ok)
      return std::nullopt;
  }
  if (!width || (!flat && type.getShape().back() % *width != 0))
    return std::nullopt;
  return width;
}

/// `type` with its innermost dimension split into (dim / w, w).
static MemRefType vectorizedType(MemRefType type, int64_t w) {
  SmallVector<int64_t> shape(type.getShape());
  if (!ShapedType::isDynamic(shape.back()))
    shape.back() /= w;
  shape.push_back(w);
  return MemRefType::get(shape, type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// Rewrites every access of `old` (width-`w` vectors) into one of `base`,
/// whose type is vectorizedType's; erases the old accesses. `old` and
/// `base` may be the same value (an argument whose type changed).
static void rewriteAccesses(Value old, Value base, int64_t w) {
  for (OpOperand &use : llvm::make_early_inc_range(old.getUses())) {
    Operation *user = use.getOwner();
    OpBuilder b(user);
    Location loc = user->getLoc();
    // Scalar accesses address the component; vector ones the vector.
    auto scalarIndices = [&](ValueRange indices) {
      SmallVector<Value> split(indices.drop_back());
      auto [vectorIndex, component] = splitIndex(b, loc, indices.back(), w);
      split.append({vectorIndex, component});
      return split;
    };
    auto vectorIndices = [&](ValueRange indices) {
      SmallVector<Value> split(indices.drop_back());
      split.append(
          {divideExact(b, loc, indices.back(), w), indexConstant(b, loc, 0)});
      return split;
    };
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      load.replaceAllUsesWith(
          memref::LoadOp::create(b, loc, base, scalarIndices(load.getIndices()))
              .getResult());
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      memref::StoreOp::create(b, loc, store.getValueToStore(), base,
                              scalarIndices(store.getIndices()));
    } else if (auto load = dyn_cast<vector::LoadOp>(user)) {
      load.replaceAllUsesWith(
          vector::LoadOp::create(b, loc, load.getVectorType(), base,
                                 vectorIndices(load.getIndices()))
              .getResult());
    } else {
      auto vstore = cast<vector::StoreOp>(user);
      vector::StoreOp::create(b, loc, vstore.getValueToStore(), base,
                              vectorIndices(vstore.getIndices()));
    }
    user->erase();
  }
}

void kiln::vectorizeWorkgroupMemory(gpu::GPUFuncOp fn) {
  SmallVector<std::pair<memref::AllocOp, int64_t>> plans;
  fn.walk([&](memref::AllocOp alloc) {
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
        alloc.getType().getMemorySpace());
    if (alloc->hasAttr(kVectorComponentsAttr) || !space ||
        space.getValue() != gpu::AddressSpace::Workgroup ||
        !alloc.getType().hasStaticShape())
      return;
    // Workgroup variables have no address a program could align.
    if (std::optional<int64_t> w = planWidth(alloc.getResult(), alloc.getType(),
                                             /*trustAlignment=*/false))
      plans.push_back({alloc, *w});
  });
  for (auto [alloc, w] : plans) {
    OpBuilder b(alloc);
    auto replacement = memref::AllocOp::create(
        b, alloc.getLoc(), vectorizedType(alloc.getType(), w));
    replacement->setAttr(kVectorComponentsAttr, b.getUnitAttr());
    rewriteAccesses(alloc.getResult(), replacement.getResult(), w);
    alloc.erase();
  }
}

/// Gives `fn` the function type its entry block's arguments now have.
static void updateFunctionType(gpu::GPUFuncOp fn) {
  fn.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
      fn.getContext(), fn.front().getArgumentTypes(), fn.getResultTypes())));
}

SmallVector<VectorizedBuffer>
kiln::vectorizeStorageBuffers(gpu::GPUFuncOp fn, ArrayRef<unsigned> skip) {
  SmallVector<VectorizedBuffer> done;
  StringRef abiName = spirv::getInterfaceVarABIAttrName();
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    BlockArgument arg = fn.getArgument(i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    auto abi = fn.getArgAttrOfType<spirv::InterfaceVarABIAttr>(i, abiName);
    if (!type || !abi || llvm::is_contained(skip, i) ||
        fn.getArgAttr(i, kVectorComponentsAttr))
      continue;
    std::optional<int64_t> w = planWidth(arg, type, /*trustAlignment=*/true);
    if (!w)
      continue;
    arg.setType(vectorizedType(type, *w));
    fn.setArgAttr(i, kVectorComponentsAttr, UnitAttr::get(fn.getContext()));
    rewriteAccesses(arg, arg, *w);
    done.push_back({abi.getDescriptorSet(), abi.getBinding(),
                    unsigned(*w * type.getElementTypeBitWidth() / 8)});
  }
  if (!done.empty())
    updateFunctionType(fn);
  return done;
}

/// The kernel argument `memref` is, when it is one marked as vectors.
static bool isMarkedArgument(Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg)
    return false;
  auto fn = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  return fn && arg.getOwner()->isEntryBlock() &&
         fn.getArgAttr(arg.getArgNumber(), kVectorComponentsAttr);
}

static bool isMarked(Value memref) {
  auto alloc = memref.getDefiningOp<memref::AllocOp>();
  return (alloc && alloc->hasAttr(kVectorComponentsAttr)) ||
         isMarkedArgument(memref);
}

bool kiln::isVectorComponentAccess(Operation *op) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return isMarked(load.getBase());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return isMarked(store.getBase());
  return false;
}

/// The memory spaces of marked memrefs once every other memref's is a
/// storage class: no upstream type conversion accepts them.
static Attribute workgroupMarker(MLIRContext *ctx) {
  return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
}
static Attribute bufferMarker(MLIRContext *ctx) {
  return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
}

/// The storage class a marked memref type stands for, if it is one.
static std::optional<spirv::StorageClass> markedClass(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return std::nullopt;
  MLIRContext *ctx = type.getContext();
  if (memref.getMemorySpace() == workgroupMarker(ctx))
    return spirv::StorageClass::Workgroup;
  if (memref.getMemorySpace() == bufferMarker(ctx))
    return spirv::StorageClass::StorageBuffer;
  return std::nullopt;
}

static MemRefType withSpace(MemRefType type, Attribute space) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout(), space);
}

void kiln::markVectorMemoryTypes(Operation *root) {
  MLIRContext *ctx = root->getContext();
  root->walk([&](memref::AllocOp alloc) {
    if (alloc->hasAttr(kVectorComponentsAttr))
      alloc.getResult().setType(
          withSpace(alloc.getType(), workgroupMarker(ctx)));
  });
  root->walk([&](gpu::GPUFuncOp fn) {
    bool changed = false;
    for (BlockArgument arg : fn.getArguments()) {
      if (!fn.getArgAttr(arg.getArgNumber(), kVectorComponentsAttr))
        continue;
      arg.setType(
          withSpace(cast<MemRefType>(arg.getType()), bufferMarker(ctx)));
      changed = true;
    }
    if (changed)
      updateFunctionType(fn);
  });
}

namespace {
/// A marked allocation: a Workgroup variable of nested arrays of vectors.
class VectorWorkgroupAlloc final : public OpConversionPattern<memref::AllocOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(memref::AllocOp alloc, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (markedClass(alloc.getType()) != spirv::StorageClass::Workgroup)
      return failure();
    Type type = getTypeConverter()->convertType(alloc.getType());
    Operation *table = SymbolTable::getNearestSymbolTable(alloc->getParentOp());
    if (!type || !table)
      return failure();
    spirv::GlobalVariableOp var;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block &body = table->getRegion(0).front();
      rewriter.setInsertionPointToStart(&body);
      auto vars = body.getOps<spirv::GlobalVariableOp>();
      std::string name =
          "__workgroup_mem__" +
          std::to_string(std::distance(vars.begin(), vars.end()));
      var = spirv::GlobalVariableOp::create(rewriter, alloc.getLoc(), type,
                                            name, /*initializer=*/nullptr);
    }
    rewriter.replaceOpWithNewOp<spirv::AddressOfOp>(alloc, var);
    return success();
  }
};

/// A load or store of a marked memref: one access chain through the arrays
/// (after the block's member, for a storage buffer) and, for a scalar, into
/// the vector.
template <typename OpT>
class VectorMemoryAccess final : public OpConversionPattern<OpT> {
public:
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OpAdaptor = typename OpT::Adaptor;

  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value memref, converted;
    ValueRange indices;
    if constexpr (std::is_same_v<OpT, vector::LoadOp> ||
                  std::is_same_v<OpT, vector::StoreOp>) {
      memref = op.getBase();
      converted = adaptor.getBase();
      // [.., vector index, 0]: the chain stops at the vector.
      indices = adaptor.getIndices().drop_back();
    } else {
      memref = op.getMemref();
      converted = adaptor.getMemref();
      indices = adaptor.getIndices();
    }
    std::optional<spirv::StorageClass> storage = markedClass(memref.getType());
    if (!storage)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> chain;
    if (*storage == spirv::StorageClass::StorageBuffer)
      chain.push_back(spirv::ConstantOp::create(
          rewriter, loc, rewriter.getI32Type(), rewriter.getI32IntegerAttr(0)));
    chain.append(indices.begin(), indices.end());
    Value ptr = spirv::AccessChainOp::create(rewriter, loc, converted, chain);
    if constexpr (std::is_same_v<OpT, memref::LoadOp> ||
                  std::is_same_v<OpT, vector::LoadOp>) {
      rewriter.replaceOpWithNewOp<spirv::LoadOp>(op, ptr);
    } else if constexpr (std::is_same_v<OpT, memref::StoreOp>) {
      spirv::StoreOp::create(rewriter, loc, ptr, adaptor.getValue());
      rewriter.eraseOp(op);
    } else {
      spirv::StoreOp::create(rewriter, loc, ptr, adaptor.getValueToStore());
      rewriter.eraseOp(op);
    }
    return success();
  }
};
} // namespace

void kiln::populateVectorMemoryPatterns(SPIRVTypeConverter &typeConverter,
                                        RewritePatternSet &patterns) {
  typeConverter.addConversion([](MemRefType type) -> std::optional<Type> {
    std::optional<spirv::StorageClass> storage = markedClass(type);
    if (!storage)
      return std::nullopt;
    ArrayRef<int64_t> shape = type.getShape();
    Type element = VectorType::get({shape.back()}, type.getElementType());
    bool buffer = *storage == spirv::StorageClass::StorageBuffer;
    // A storage buffer's arrays are laid out (ArrayStride) and wrapped in a
    // block; a dynamic outer dimension is a runtime array.
    int64_t stride = shape.back() * type.getElementTypeBitWidth() / 8;
    for (int64_t dim : llvm::reverse(shape.drop_back())) {
      if (ShapedType::isDynamic(dim))
        element = spirv::RuntimeArrayType::get(element, stride);
      else if (buffer)
        element = spirv::ArrayType::get(element, dim, stride);
      else
        element = spirv::ArrayType::get(element, dim);
      stride *= ShapedType::isDynamic(dim) ? 1 : dim;
    }
    if (buffer)
      element = spirv::StructType::get({element}, {0});
    return spirv::PointerType::get(element, *storage);
  });
  patterns.add<VectorWorkgroupAlloc, VectorMemoryAccess<memref::LoadOp>,
               VectorMemoryAccess<memref::StoreOp>,
               VectorMemoryAccess<vector::LoadOp>,
               VectorMemoryAccess<vector::StoreOp>>(
      typeConverter, patterns.getContext(), /*benefit=*/3);
}
