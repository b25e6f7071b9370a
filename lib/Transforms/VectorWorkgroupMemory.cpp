//===- VectorWorkgroupMemory.cpp - Workgroup arrays of vectors ------------===//

#include "VectorWorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

namespace {
/// The vector width a memref's accesses agree on.
struct Plan {
  memref::AllocOp alloc;
  int64_t width;
};
} // namespace

static std::optional<int64_t> constantIndex(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

/// True when `v` is provably a multiple of `w` (a power of two): constants,
/// products with a multiple, sums and differences of multiples, shifts by
/// enough bits, and loop induction variables whose start and step are.
static bool isMultipleOf(Value v, int64_t w, unsigned depth = 8) {
  if (depth == 0)
    return false;
  if (std::optional<int64_t> c = constantIndex(v))
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
    std::optional<int64_t> bits = constantIndex(shl.getRhs());
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
  if (std::optional<int64_t> c = constantIndex(v))
    return indexConstant(b, loc, *c / w);
  if (Operation *def = v.getDefiningOp(); def && depth > 0) {
    if (auto mul = dyn_cast<arith::MulIOp>(def)) {
      for (auto [factor, other] : {std::pair(mul.getRhs(), mul.getLhs()),
                                   std::pair(mul.getLhs(), mul.getRhs())}) {
        std::optional<int64_t> c = constantIndex(factor);
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
  if (std::optional<int64_t> c = constantIndex(j))
    return {indexConstant(b, loc, llvm::divideFloorSigned(*c, w)),
            indexConstant(b, loc, *c - llvm::divideFloorSigned(*c, w) * w)};
  if (isMultipleOf(j, w))
    return {divideExact(b, loc, j, w), indexConstant(b, loc, 0)};
  if (auto add = j.getDefiningOp<arith::AddIOp>()) {
    for (auto [part, rest] : {std::pair(add.getRhs(), add.getLhs()),
                              std::pair(add.getLhs(), add.getRhs())}) {
      std::optional<int64_t> c = constantIndex(part);
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

/// The width all vector accesses of `alloc` agree on, if it qualifies.
static std::optional<int64_t> planWidth(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
      !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() == 0 || !type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() != 32 ||
      (isa<IntegerType>(type.getElementType()) &&
       !type.getElementType().isSignlessInteger()))
    return std::nullopt;
  std::optional<int64_t> width;
  auto vectorAccess = [&](VectorType vector, ValueRange indices) {
    if (vector.getRank() != 1 || vector.isScalable())
      return false;
    int64_t w = vector.getNumElements();
    if ((w != 2 && w != 4) || (width && *width != w))
      return false;
    width = w;
    return isMultipleOf(indices.back(), w);
  };
  for (OpOperand &use : alloc.getResult().getUses()) {
    Operation *user = use.getOwner();
    bool ok = false;
    if (isa<memref::LoadOp>(user))
      ok = true;
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      ok = use.get() == store.getMemRef();
    else if (auto load = dyn_cast<vector::LoadOp>(user))
      ok = vectorAccess(load.getVectorType(), load.getIndices());
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      ok = use.get() == store.getBase() &&
           vectorAccess(store.getVectorType(), store.getIndices());
    if (!ok)
      return std::nullopt;
  }
  if (!width || type.getShape().back() % *width != 0)
    return std::nullopt;
  return width;
}

void kiln::vectorizeWorkgroupMemory(gpu::GPUFuncOp fn) {
  SmallVector<Plan> plans;
  fn.walk([&](memref::AllocOp alloc) {
    if (alloc->hasAttr(kVectorComponentsAttr))
      return;
    if (std::optional<int64_t> w = planWidth(alloc))
      plans.push_back({alloc, *w});
  });
  for (auto [alloc, w] : plans) {
    MemRefType type = alloc.getType();
    SmallVector<int64_t> shape(type.getShape());
    shape.back() /= w;
    shape.push_back(w);
    auto vectorized =
        MemRefType::get(shape, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    OpBuilder b(alloc);
    auto replacement = memref::AllocOp::create(b, alloc.getLoc(), vectorized);
    replacement->setAttr(kVectorComponentsAttr, b.getUnitAttr());
    Value base = replacement.getResult();
    for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
      Operation *user = use.getOwner();
      b.setInsertionPoint(user);
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
            memref::LoadOp::create(b, loc, base,
                                   scalarIndices(load.getIndices()))
                .getResult());
      } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
        memref::StoreOp::create(b, loc, store.getValueToStore(), base,
                                scalarIndices(store.getIndices()));
      } else if (auto load = dyn_cast<vector::LoadOp>(user)) {
        load.replaceAllUsesWith(
            vector::LoadOp::create(b, loc, load.getVectorType(), base,
                                   vectorIndices(load.getIndices()))
                .getResult());
      } else if (auto store = cast<vector::StoreOp>(user)) {
        vector::StoreOp::create(b, loc, store.getValueToStore(), base,
                                vectorIndices(store.getIndices()));
      }
      user->erase();
    }
    alloc.erase();
  }
}

static bool isMarkedAlloc(Value memref) {
  auto alloc = memref.getDefiningOp<memref::AllocOp>();
  return alloc && alloc->hasAttr(kVectorComponentsAttr);
}

bool kiln::isVectorComponentAccess(Operation *op) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return isMarkedAlloc(load.getBase());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return isMarkedAlloc(store.getBase());
  return false;
}

/// The memory space of marked memrefs once every other memref's is a
/// storage class: no upstream type conversion accepts it.
static Attribute markerSpace(MLIRContext *ctx) {
  return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
}

static bool isMarkedType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getMemorySpace() == markerSpace(type.getContext());
}

void kiln::markVectorWorkgroupTypes(Operation *root) {
  root->walk([](memref::AllocOp alloc) {
    if (!alloc->hasAttr(kVectorComponentsAttr))
      return;
    MemRefType type = alloc.getType();
    alloc.getResult().setType(
        MemRefType::get(type.getShape(), type.getElementType(),
                        type.getLayout(), markerSpace(type.getContext())));
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
    if (!isMarkedType(alloc.getType()))
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
/// and, for a scalar, into the vector.
template <typename OpT>
class VectorWorkgroupAccess final : public OpConversionPattern<OpT> {
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
    if (!isMarkedType(memref.getType()))
      return failure();
    Location loc = op.getLoc();
    Value ptr = spirv::AccessChainOp::create(rewriter, loc, converted,
                                             llvm::to_vector(indices));
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

void kiln::populateVectorWorkgroupMemoryPatterns(
    SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  typeConverter.addConversion([](MemRefType type) -> std::optional<Type> {
    if (!isMarkedType(type))
      return std::nullopt;
    ArrayRef<int64_t> shape = type.getShape();
    Type element = VectorType::get({shape.back()}, type.getElementType());
    for (int64_t dim : llvm::reverse(shape.drop_back()))
      element = spirv::ArrayType::get(element, dim);
    return spirv::PointerType::get(element, spirv::StorageClass::Workgroup);
  });
  patterns.add<VectorWorkgroupAlloc, VectorWorkgroupAccess<memref::LoadOp>,
               VectorWorkgroupAccess<memref::StoreOp>,
               VectorWorkgroupAccess<vector::LoadOp>,
               VectorWorkgroupAccess<vector::StoreOp>>(
      typeConverter, patterns.getContext(), /*benefit=*/3);
}
