//===- LowerShuffle.cpp - gpu.shuffle as warp shuffles with MLIR's meaning -===//
//
// MLIR 22's own lowering treats `width` as the member mask of the shuffle
// (only lanes below it may execute it) and passes `32 - width` as the clamp
// of `shfl.up`, where PTX reads a segment mask; with 32 lanes and width 8,
// lanes 8 and up execute a shuffle whose member mask leaves them out
// (undefined in PTX) and `up` is valid on the wrong lanes. Kiln lowers every
// gpu.shuffle here, before convert-gpu-to-nvvm, to what the op says: lane k
// reads lane j (xor: k ^ offset, up: k - offset, down: k + offset, idx:
// offset) and `valid` is k < width and j < width, over the lanes that are
// active (activemask), in 32-bit pieces.
//
//===----------------------------------------------------------------------===//

#include "kiln/Conversion/GPUToNVVM/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

namespace kiln {
#define GEN_PASS_DEF_KILNLOWERSHUFFLE
#include "kiln/Conversion/GPUToNVVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// Emits the shuffles of one gpu.shuffle: `read` moves a 32-bit value.
class ShuffleEmitter {
public:
  ShuffleEmitter(OpBuilder &b, Location loc,
                 std::function<Value(Value)> read)
      : b(b), loc(loc), read(std::move(read)) {}

  /// The value of `v` (any type gpu.shuffle takes) in the source lane.
  Value shuffle(Value v) {
    Type type = v.getType();
    Type i32 = b.getI32Type();
    if (auto vector = dyn_cast<VectorType>(type)) {
      SmallVector<Value> elements;
      for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i)
        elements.push_back(
            shuffle(vector::ExtractOp::create(b, loc, v, i).getResult()));
      return vector::FromElementsOp::create(b, loc, vector, elements);
    }
    unsigned width = type.getIntOrFloatBitWidth();
    Type intType = b.getIntegerType(width);
    Value bits = isa<FloatType>(type)
                     ? arith::BitcastOp::create(b, loc, intType, v).getResult()
                     : v;
    Value moved;
    if (width == 32) {
      moved = read(bits);
    } else if (width < 32) {
      Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
      moved = arith::TruncIOp::create(b, loc, intType, read(wide));
    } else {
      // 64 bits (the widest gpu.shuffle takes): two halves.
      Type i64 = b.getI64Type();
      Value shift = arith::ConstantIntOp::create(b, loc, i64, 32);
      Value low = arith::TruncIOp::create(b, loc, i32, bits);
      Value high = arith::TruncIOp::create(
          b, loc, i32, arith::ShRUIOp::create(b, loc, bits, shift));
      Value lowMoved = arith::ExtUIOp::create(b, loc, i64, read(low));
      Value highMoved = arith::ExtUIOp::create(b, loc, i64, read(high));
      moved = arith::OrIOp::create(
          b, loc, lowMoved, arith::ShLIOp::create(b, loc, highMoved, shift));
    }
    if (isa<FloatType>(type))
      return arith::BitcastOp::create(b, loc, type, moved);
    return moved;
  }

private:
  OpBuilder &b;
  Location loc;
  std::function<Value(Value)> read;
};

class LowerShufflePass
    : public kiln::impl::KilnLowerShuffleBase<LowerShufflePass> {
public:
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<gpu::ShuffleOp, gpu::RotateOp, gpu::SubgroupBroadcastOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op))
        lower(shuffle);
      else if (auto rotate = dyn_cast<gpu::RotateOp>(op))
        lower(rotate);
      else
        lower(cast<gpu::SubgroupBroadcastOp>(op));
    }
  }

private:
  static Value activeMask(OpBuilder &b, Location loc) {
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getI32Type(), b.getStringAttr("llvm.nvvm.activemask"),
               ValueRange{})
        .getResult(0);
  }

  static Value laneId(OpBuilder &b, Location loc) {
    return arith::IndexCastUIOp::create(
        b, loc, b.getI32Type(),
        gpu::LaneIdOp::create(b, loc, b.getIndexAttr(32)).getResult());
  }

  /// `value` (any type gpu.shuffle takes) from lane `from` of the active
  /// lanes.
  static Value readLane(OpBuilder &b, Location loc, Value value, Value from) {
    Type i32 = b.getI32Type();
    Value mask = activeMask(b, loc);
    Value clamp = arith::ConstantIntOp::create(b, loc, i32, 31);
    ShuffleEmitter emitter(b, loc, [&](Value piece) -> Value {
      return NVVM::ShflOp::create(b, loc, i32, mask, piece, from, clamp,
                                  NVVM::ShflKind::idx, UnitAttr());
    });
    return emitter.shuffle(value);
  }

  /// gpu.rotate: lane ((k + offset) mod width) of the invocation's group of
  /// `width` lanes; valid where k < width.
  static void lower(gpu::RotateOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, i32, v);
    };
    uint32_t width = op.getWidth(), offset = op.getOffset();
    Value lane = laneId(b, loc);
    Value moved = arith::AndIOp::create(
        b, loc, arith::AddIOp::create(b, loc, lane, c(offset)), c(width - 1));
    Value group = arith::AndIOp::create(b, loc, lane, c(~int64_t(width - 1)));
    Value source = arith::AddIOp::create(b, loc, moved, group);
    Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                        c(width));
    source = arith::SelectOp::create(b, loc, valid, source, lane);
    Value result = readLane(b, loc, op.getValue(), source);
    op.getRotateResult().replaceAllUsesWith(result);
    op.getValid().replaceAllUsesWith(valid);
    op.erase();
  }

  /// gpu.subgroup_broadcast: from the given lane, or from the lowest active
  /// one (the lowest bit of activemask).
  static void lower(gpu::SubgroupBroadcastOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value from = op.getLane();
    if (op.getBroadcastType() == gpu::BroadcastType::first_active_lane)
      from = LLVM::CountTrailingZerosOp::create(
          b, loc, b.getI32Type(), activeMask(b, loc), b.getBoolAttr(false));
    op.getResult().replaceAllUsesWith(readLane(b, loc, op.getSrc(), from));
    op.erase();
  }

  static void lower(gpu::ShuffleOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type i32 = b.getI32Type();
    auto constant = [&](int32_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, i32, v);
    };
    Value lane = laneId(b, loc);
    Value offset = op.getOffset();
    Value width = op.getWidth();
    Value source;
    NVVM::ShflKind kind = NVVM::ShflKind::idx;
    switch (op.getMode()) {
    case gpu::ShuffleMode::XOR:
      source = arith::XOrIOp::create(b, loc, lane, offset);
      kind = NVVM::ShflKind::bfly;
      break;
    case gpu::ShuffleMode::UP:
      source = arith::SubIOp::create(b, loc, lane, offset);
      kind = NVVM::ShflKind::up;
      break;
    case gpu::ShuffleMode::DOWN:
      source = arith::AddIOp::create(b, loc, lane, offset);
      kind = NVVM::ShflKind::down;
      break;
    case gpu::ShuffleMode::IDX:
      source = offset;
      break;
    }
    Value laneIn = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         lane, width);
    Value sourceIn = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           source, width);
    Value valid = arith::AndIOp::create(b, loc, laneIn, sourceIn);
    Value mask = activeMask(b, loc);
    // The lanes of a whole warp (a constant width of 32) move by the mode
    // itself; any other width reads the computed lane, or the lane's own
    // value where the result is not valid.
    APInt constantWidth;
    bool wholeWarp = matchPattern(width, m_ConstantInt(&constantWidth)) &&
                     constantWidth == 32 && kind != NVVM::ShflKind::idx;
    Value from = wholeWarp ? offset
                           : arith::SelectOp::create(b, loc, valid, source,
                                                     lane)
                                 .getResult();
    if (!wholeWarp)
      kind = NVVM::ShflKind::idx;
    // The clamp: lane 0 is the lowest source of `up`, lane 31 the highest
    // of the others; no segments.
    Value clamp = constant(kind == NVVM::ShflKind::up ? 0 : 31);
    ShuffleEmitter emitter(b, loc, [&](Value piece) -> Value {
      return NVVM::ShflOp::create(b, loc, i32, mask, piece, from, clamp, kind,
                                  UnitAttr());
    });
    Value result = emitter.shuffle(op.getValue());
    op.getShuffleResult().replaceAllUsesWith(result);
    op.getValid().replaceAllUsesWith(valid);
    op.erase();
  }
};
} // namespace
