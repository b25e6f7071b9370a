//===- Subgroup.cpp - Subgroup operations of the spirv-cpu target ---------===//
//
// Integers are combined as 64-bit words masked to their width (addition,
// multiplication and the bitwise operations commute with truncation; the
// signed and unsigned comparisons extend first). Floats are combined in
// double and rounded to their own type after every step: for f32 and f16
// (through f32) that is the correctly rounded result of each addition or
// multiplication, as a GPU computes it.
//
//===----------------------------------------------------------------------===//

#include "Subgroup.h"
#include "../KernelArgs.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Status;

unsigned kiln::spirvcpu::scalarKindBytes(uint32_t type) {
  switch (ScalarKind(type)) {
  case ScalarKind::Bool:
  case ScalarKind::I8:
    return 1;
  case ScalarKind::I16:
  case ScalarKind::F16:
    return 2;
  case ScalarKind::I32:
  case ScalarKind::F32:
    return 4;
  case ScalarKind::I64:
  case ScalarKind::F64:
    return 8;
  }
  return 0;
}

namespace {
/// One element: integers (and Bool) in `u`, floats in `d`.
struct Value {
  uint64_t u = 0;
  double d = 0;
};

bool isFloat(ScalarKind type) {
  return type == ScalarKind::F16 || type == ScalarKind::F32 ||
         type == ScalarKind::F64;
}

uint64_t widthMask(ScalarKind type) {
  unsigned bits = 8 * scalarKindBytes(uint32_t(type));
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

int64_t signExtend(uint64_t u, ScalarKind type) {
  unsigned bits = 8 * scalarKindBytes(uint32_t(type));
  if (bits >= 64)
    return int64_t(u);
  uint64_t sign = uint64_t(1) << (bits - 1);
  return int64_t((u ^ sign) - sign);
}

/// Rounds `d` to the precision of `type`.
double roundTo(double d, ScalarKind type) {
  if (type == ScalarKind::F32)
    return double(float(d));
  if (type == ScalarKind::F16)
    return double(rt::halfToFloat(rt::floatToHalf(float(d))));
  return d;
}

Value load(const void *base, ScalarKind type, uint32_t component) {
  const uint8_t *p = static_cast<const uint8_t *>(base) +
                     component * scalarKindBytes(uint32_t(type));
  Value v;
  switch (type) {
  case ScalarKind::Bool:
    v.u = *p != 0;
    break;
  case ScalarKind::I8:
    v.u = *p;
    break;
  case ScalarKind::I16:
    v.u = rt::readParam<uint16_t>(p);
    break;
  case ScalarKind::I32:
    v.u = rt::readParam<uint32_t>(p);
    break;
  case ScalarKind::I64:
    v.u = rt::readParam<uint64_t>(p);
    break;
  case ScalarKind::F16:
    v.d = rt::halfToFloat(rt::readParam<uint16_t>(p));
    break;
  case ScalarKind::F32:
    v.d = rt::readParam<float>(p);
    break;
  case ScalarKind::F64:
    v.d = rt::readParam<double>(p);
    break;
  }
  return v;
}

void store(void *base, ScalarKind type, uint32_t component, Value v) {
  uint8_t *p = static_cast<uint8_t *>(base) +
               component * scalarKindBytes(uint32_t(type));
  switch (type) {
  case ScalarKind::Bool:
  case ScalarKind::I8:
    *p = uint8_t(v.u);
    break;
  case ScalarKind::I16: {
    uint16_t x = uint16_t(v.u);
    std::memcpy(p, &x, 2);
    break;
  }
  case ScalarKind::I32: {
    uint32_t x = uint32_t(v.u);
    std::memcpy(p, &x, 4);
    break;
  }
  case ScalarKind::I64:
    std::memcpy(p, &v.u, 8);
    break;
  case ScalarKind::F16: {
    uint16_t x = rt::floatToHalf(float(v.d));
    std::memcpy(p, &x, 2);
    break;
  }
  case ScalarKind::F32: {
    float x = float(v.d);
    std::memcpy(p, &x, 4);
    break;
  }
  case ScalarKind::F64:
    std::memcpy(p, &v.d, 8);
    break;
  }
}

const char *opName(SubgroupOp op) {
  switch (op) {
#define KILN_OP(NAME)                                                          \
  case SubgroupOp::NAME:                                                       \
    return #NAME;
    KILN_OP(IAdd)
    KILN_OP(IMul)
    KILN_OP(FAdd)
    KILN_OP(FMul)
    KILN_OP(SMin)
    KILN_OP(SMax)
    KILN_OP(UMin)
    KILN_OP(UMax)
    KILN_OP(FMin)
    KILN_OP(FMax)
    KILN_OP(BitwiseAnd)
    KILN_OP(BitwiseOr)
    KILN_OP(BitwiseXor)
    KILN_OP(LogicalAnd)
    KILN_OP(LogicalOr)
    KILN_OP(LogicalXor)
    KILN_OP(Broadcast)
    KILN_OP(BroadcastFirst)
    KILN_OP(Shuffle)
    KILN_OP(ShuffleXor)
    KILN_OP(ShuffleUp)
    KILN_OP(ShuffleDown)
    KILN_OP(Elect)
    KILN_OP(All)
    KILN_OP(Any)
    KILN_OP(AllEqual)
    KILN_OP(Ballot)
#undef KILN_OP
  }
  return nullptr;
}

const char *kindName(ScalarKind type) {
  static const char *const names[] = {"bool", "i8",  "i16", "i32",
                                      "i64",  "f16", "f32", "f64"};
  return uint32_t(type) < 8 ? names[uint32_t(type)] : "unknown type";
}

bool isReduction(SubgroupOp op) { return uint32_t(op) < 32; }

/// Whether reduction `op` takes elements of `type`.
bool takesType(SubgroupOp op, ScalarKind type) {
  switch (op) {
  case SubgroupOp::FAdd:
  case SubgroupOp::FMul:
  case SubgroupOp::FMin:
  case SubgroupOp::FMax:
    return isFloat(type);
  case SubgroupOp::LogicalAnd:
  case SubgroupOp::LogicalOr:
  case SubgroupOp::LogicalXor:
    return type == ScalarKind::Bool;
  default:
    return !isFloat(type) && type != ScalarKind::Bool;
  }
}

Value identity(SubgroupOp op, ScalarKind type) {
  Value v;
  uint64_t mask = widthMask(type);
  switch (op) {
  case SubgroupOp::IMul:
  case SubgroupOp::LogicalAnd:
    v.u = 1;
    break;
  case SubgroupOp::FMul:
    v.d = 1;
    break;
  case SubgroupOp::SMin:
    v.u = mask >> 1;
    break;
  case SubgroupOp::SMax:
    v.u = (mask >> 1) + 1;
    break;
  case SubgroupOp::UMin:
  case SubgroupOp::BitwiseAnd:
    v.u = mask;
    break;
  case SubgroupOp::FMin:
    v.d = std::numeric_limits<double>::infinity();
    break;
  case SubgroupOp::FMax:
    v.d = -std::numeric_limits<double>::infinity();
    break;
  default:
    break; // 0 for the additions, Or, Xor, UMax.
  }
  return v;
}

Value combine(SubgroupOp op, ScalarKind type, Value a, Value b) {
  Value r;
  uint64_t mask = widthMask(type);
  switch (op) {
  case SubgroupOp::IAdd:
    r.u = (a.u + b.u) & mask;
    break;
  case SubgroupOp::IMul:
    r.u = (a.u * b.u) & mask;
    break;
  case SubgroupOp::SMin:
    r.u = signExtend(a.u, type) <= signExtend(b.u, type) ? a.u : b.u;
    break;
  case SubgroupOp::SMax:
    r.u = signExtend(a.u, type) >= signExtend(b.u, type) ? a.u : b.u;
    break;
  case SubgroupOp::UMin:
    r.u = a.u <= b.u ? a.u : b.u;
    break;
  case SubgroupOp::UMax:
    r.u = a.u >= b.u ? a.u : b.u;
    break;
  case SubgroupOp::BitwiseAnd:
  case SubgroupOp::LogicalAnd:
    r.u = a.u & b.u;
    break;
  case SubgroupOp::BitwiseOr:
  case SubgroupOp::LogicalOr:
    r.u = a.u | b.u;
    break;
  case SubgroupOp::BitwiseXor:
  case SubgroupOp::LogicalXor:
    r.u = a.u ^ b.u;
    break;
  case SubgroupOp::FAdd:
    r.d = roundTo(a.d + b.d, type);
    break;
  case SubgroupOp::FMul:
    r.d = roundTo(a.d * b.d, type);
    break;
  case SubgroupOp::FMin:
    r.d = std::isnan(a.d)   ? b.d
          : std::isnan(b.d) ? a.d
                            : (b.d < a.d ? b.d : a.d);
    break;
  case SubgroupOp::FMax:
    r.d = std::isnan(a.d)   ? b.d
          : std::isnan(b.d) ? a.d
                            : (b.d > a.d ? b.d : a.d);
    break;
  default:
    break;
  }
  return r;
}

bool equal(ScalarKind type, Value a, Value b) {
  return isFloat(type) ? a.d == b.d : a.u == b.u;
}

Status refuse(const std::string &message) {
  return KILN_ERROR(InvalidArgument, message);
}
} // namespace

Status
kiln::spirvcpu::resolveSubgroup(const SubgroupLane (&lanes)[kSubgroupSize]) {
  int first = -1;
  for (uint32_t l = 0; l < kSubgroupSize; ++l)
    if (lanes[l].active) {
      first = int(l);
      break;
    }
  if (first < 0)
    return Status::success();
  const SubgroupLane &lead = lanes[first];
  auto op = SubgroupOp(lead.op);
  auto type = ScalarKind(lead.type);
  uint32_t components = lead.components;
  const char *name = opName(op);
  if (!name)
    return refuse("unknown subgroup operation " + std::to_string(lead.op));
  unsigned bytes = scalarKindBytes(lead.type);
  bool needsValue = op != SubgroupOp::Elect;
  if (needsValue && (bytes == 0 || components < 1 || components > 16))
    return refuse(std::string("subgroup operation ") + name + " on " +
                  std::to_string(components) + " elements of " +
                  (bytes ? kindName(type) : "an unknown type"));
  for (uint32_t l = 0; l < kSubgroupSize; ++l) {
    const SubgroupLane &lane = lanes[l];
    if (!lane.active)
      continue;
    if (lane.op != lead.op || lane.type != lead.type ||
        lane.components != components ||
        (isReduction(op) && lane.arg != lead.arg))
      return refuse("invocations of one subgroup reach the same site with "
                    "different subgroup operations (" +
                    std::string(name) + " and " +
                    (opName(SubgroupOp(lane.op)) ? opName(SubgroupOp(lane.op))
                                                 : "unknown") +
                    ")");
    if (!lane.result || (needsValue && !lane.value))
      return refuse(std::string("subgroup operation ") + name +
                    " with a null value or result pointer");
  }
  auto active = [&](int64_t l) {
    return l >= 0 && l < int64_t(kSubgroupSize) && lanes[l].active;
  };

  if (isReduction(op)) {
    if (!takesType(op, type))
      return refuse(std::string("subgroup operation ") + name + " on " +
                    kindName(type));
    auto group = GroupOperation(lead.arg & 0xFF);
    uint32_t cluster = lead.arg >> 8;
    if (group == GroupOperation::ClusteredReduce &&
        (cluster == 0 || cluster > kSubgroupSize || (cluster & (cluster - 1))))
      return refuse(std::string("subgroup operation ") + name +
                    " with cluster size " + std::to_string(cluster) +
                    "; it must be a power of two up to " +
                    std::to_string(kSubgroupSize));
    if (uint32_t(group) > uint32_t(GroupOperation::ClusteredReduce))
      return refuse(std::string("subgroup operation ") + name +
                    " with unknown group operation " +
                    std::to_string(lead.arg & 0xFF));
    // Results are computed for every lane before any is written: a result
    // may alias another lane's value.
    Value results[kSubgroupSize][16];
    for (uint32_t c = 0; c < components; ++c)
      for (uint32_t l = 0; l < kSubgroupSize; ++l) {
        if (!lanes[l].active)
          continue;
        Value acc = identity(op, type);
        for (uint32_t m = 0; m < kSubgroupSize; ++m) {
          if (!lanes[m].active)
            continue;
          bool in = group == GroupOperation::Reduce ||
                    (group == GroupOperation::InclusiveScan && m <= l) ||
                    (group == GroupOperation::ExclusiveScan && m < l) ||
                    (group == GroupOperation::ClusteredReduce &&
                     m / cluster == l / cluster);
          if (in)
            acc = combine(op, type, acc, load(lanes[m].value, type, c));
        }
        results[l][c] = acc;
      }
    for (uint32_t l = 0; l < kSubgroupSize; ++l)
      if (lanes[l].active)
        for (uint32_t c = 0; c < components; ++c)
          store(lanes[l].result, type, c, results[l][c]);
    return Status::success();
  }

  size_t valueBytes = size_t(bytes) * components;
  switch (op) {
  case SubgroupOp::Broadcast:
  case SubgroupOp::BroadcastFirst:
  case SubgroupOp::Shuffle:
  case SubgroupOp::ShuffleXor:
  case SubgroupOp::ShuffleUp:
  case SubgroupOp::ShuffleDown: {
    uint8_t results[kSubgroupSize][16 * 8] = {};
    for (uint32_t l = 0; l < kSubgroupSize; ++l) {
      if (!lanes[l].active)
        continue;
      int64_t arg = lanes[l].arg, source = -1;
      switch (op) {
      case SubgroupOp::Broadcast:
      case SubgroupOp::Shuffle:
        source = arg;
        break;
      case SubgroupOp::BroadcastFirst:
        source = first;
        break;
      case SubgroupOp::ShuffleXor:
        source = int64_t(l ^ lanes[l].arg);
        break;
      case SubgroupOp::ShuffleUp:
        source = int64_t(l) - arg;
        break;
      default:
        source = int64_t(l) + arg;
        break;
      }
      if (active(source))
        std::memcpy(results[l], lanes[source].value, valueBytes);
    }
    for (uint32_t l = 0; l < kSubgroupSize; ++l)
      if (lanes[l].active)
        std::memcpy(lanes[l].result, results[l], valueBytes);
    return Status::success();
  }
  case SubgroupOp::Elect:
    for (uint32_t l = 0; l < kSubgroupSize; ++l)
      if (lanes[l].active)
        *static_cast<uint8_t *>(lanes[l].result) = int(l) == first;
    return Status::success();
  case SubgroupOp::All:
  case SubgroupOp::Any:
  case SubgroupOp::Ballot: {
    if (type != ScalarKind::Bool || components != 1)
      return refuse(std::string("subgroup operation ") + name + " on " +
                    std::to_string(components) + " elements of " +
                    kindName(type) + "; it takes one bool");
    bool all = true, any = false;
    uint32_t mask = 0;
    for (uint32_t l = 0; l < kSubgroupSize; ++l)
      if (lanes[l].active) {
        bool v = load(lanes[l].value, type, 0).u;
        all = all && v;
        any = any || v;
        mask |= uint32_t(v) << l;
      }
    for (uint32_t l = 0; l < kSubgroupSize; ++l) {
      if (!lanes[l].active)
        continue;
      if (op == SubgroupOp::Ballot) {
        uint32_t words[4] = {mask, 0, 0, 0};
        std::memcpy(lanes[l].result, words, sizeof(words));
      } else {
        *static_cast<uint8_t *>(lanes[l].result) =
            op == SubgroupOp::All ? all : any;
      }
    }
    return Status::success();
  }
  case SubgroupOp::AllEqual: {
    bool same = true;
    for (uint32_t l = 0; l < kSubgroupSize; ++l)
      if (lanes[l].active)
        for (uint32_t c = 0; c < components; ++c)
          same = same && equal(type, load(lanes[l].value, type, c),
                               load(lead.value, type, c));
    for (uint32_t l = 0; l < kSubgroupSize; ++l)
      if (lanes[l].active)
        *static_cast<uint8_t *>(lanes[l].result) = same;
    return Status::success();
  }
  default:
    return refuse("unknown subgroup operation " + std::to_string(lead.op));
  }
}
