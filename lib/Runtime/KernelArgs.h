//===- KernelArgs.h - Decoding mgpuLaunchKernel's params --------*- C++ -*-===//
//
// How a launch's `params` (docs/abi.md: each memref argument expanded as
// allocated, aligned, offset, sizes[N], strides[N]; each scalar one value)
// are read against a Kiln container's argument table, shared by the Vulkan
// and the spirv-cpu runtime: the scalar encodings of the push-constant block,
// a memref descriptor and the bytes it can reach. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_KERNELARGS_H
#define KILN_RUNTIME_KERNELARGS_H

#include "kiln/Contract/Container.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kiln {
namespace rt {

/// The value `param` points at (params need not be aligned for T).
template <typename T> T readParam(const void *param) {
  T value;
  std::memcpy(&value, param, sizeof(T));
  return value;
}

/// IEEE half to float, exactly.
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1F;
  uint32_t mantissa = h & 0x3FF;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      // Subnormal: normalize.
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      bits = sign | (uint32_t(127 - 15 - e) << 23) | ((mantissa & 0x3FF) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7F800000 | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Float to IEEE half, rounding to nearest even (NaN stays NaN).
inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t exponent = (bits >> 23) & 0xFF;
  uint32_t mantissa = bits & 0x7FFFFF;
  if (exponent == 0xFF)
    return uint16_t(sign | 0x7C00 | (mantissa ? 0x200 | (mantissa >> 13) : 0));
  int e = int(exponent) - 127 + 15;
  if (e >= 31)
    return uint16_t(sign | 0x7C00);
  if (e <= 0) {
    if (e < -10)
      return uint16_t(sign);
    // Subnormal: shift the implicit bit in, round to nearest even.
    uint32_t m = mantissa | 0x800000;
    unsigned shift = unsigned(14 - e);
    uint32_t half = m >> shift;
    uint32_t rest = m & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // May carry into the exponent, up to infinity: still correct.
  return uint16_t(sign | half);
}

/// Why encodeScalar refused a value.
enum class ScalarEncoding { Ok, UnknownType, IndexOverflow };

/// Writes the push-constant field of scalar argument `arg` (docs/abi.md: i1,
/// i8, i16 widened to 32 bits, f16 as f32, index as `arg.size` bytes) for
/// the value at `param` into `out`, and its size into `bytes`.
inline ScalarEncoding encodeScalar(const container::ArgInfo &arg,
                                   const void *param, uint8_t out[8],
                                   unsigned &bytes) {
  using container::ScalarType;
  uint32_t u32 = 0;
  bytes = 4;
  switch (arg.scalarType) {
  case ScalarType::I1:
    u32 = readParam<uint8_t>(param) & 1;
    break;
  case ScalarType::I8:
    u32 = uint32_t(int32_t(readParam<int8_t>(param)));
    break;
  case ScalarType::I16:
    u32 = uint32_t(int32_t(readParam<int16_t>(param)));
    break;
  case ScalarType::I32:
  case ScalarType::F32:
    u32 = readParam<uint32_t>(param);
    break;
  case ScalarType::I64:
  case ScalarType::F64:
    bytes = 8;
    std::memcpy(out, param, 8);
    return ScalarEncoding::Ok;
  case ScalarType::F16: {
    float f = halfToFloat(readParam<uint16_t>(param));
    std::memcpy(&u32, &f, 4);
    break;
  }
  case ScalarType::Index: {
    int64_t i = readParam<int64_t>(param);
    if (arg.size == 4) {
      if (i > INT32_MAX || i < INT32_MIN)
        return ScalarEncoding::IndexOverflow;
      u32 = uint32_t(int32_t(i));
      break;
    }
    bytes = 8;
    std::memcpy(out, &i, 8);
    return ScalarEncoding::Ok;
  }
  default:
    return ScalarEncoding::UnknownType;
  }
  std::memcpy(out, &u32, 4);
  return ScalarEncoding::Ok;
}

/// What a launch reports when encodeScalar refused argument `index` of
/// kernel `kernel` ("" for Ok), the same on every runtime.
inline std::string scalarEncodingError(ScalarEncoding encoding,
                                       const std::string &kernel,
                                       size_t index) {
  switch (encoding) {
  case ScalarEncoding::Ok:
    break;
  case ScalarEncoding::IndexOverflow:
    return "kernel '" + kernel + "' argument " + std::to_string(index) +
           " (index) does not fit the kernel's 32-bit index (compile with "
           "use-64bit-index)";
  case ScalarEncoding::UnknownType:
    return "kernel '" + kernel +
           "' has an argument of unknown scalar type; the container is "
           "corrupt";
  }
  return std::string();
}

/// The number of `params` entries the argument table takes: 3 + 2N per
/// memref of rank N, one per scalar.
inline size_t paramCount(const container::KernelInfo &kernel) {
  size_t count = 0;
  for (const container::ArgInfo &a : kernel.args)
    count += container::isMemRefKind(a.kind) ? 3 + 2 * a.rank : 1;
  return count;
}

/// A memref argument's descriptor as a launch passes it.
struct MemRefParams {
  uint64_t elementBytes = 1;
  uintptr_t aligned = 0;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
  /// The bytes the descriptor can reach, [lo, hi): `aligned + elementBytes *
  /// [offset + sum(min(0, (size_i - 1) * stride_i)), offset + sum(max(0,
  /// (size_i - 1) * stride_i)) + 1)`.
  uintptr_t lo = 0, hi = 0;
  /// Some size is zero or less: the memref has no element.
  bool empty = false;
  /// Its offset, sizes and strides reach beyond 64-bit byte offsets (lo and
  /// hi are then meaningless; checkBaseAlignment refuses it).
  bool overflow = false;

  /// The address of the first element, `aligned + offset * elementBytes`.
  uintptr_t firstElement() const {
    return aligned + uintptr_t(offset * int64_t(elementBytes));
  }
};

/// Reads memref argument `arg` from `params` (which points at its
/// `allocated` entry).
inline MemRefParams readMemRef(const container::ArgInfo &arg,
                               void *const *params) {
  MemRefParams m;
  m.elementBytes = arg.size > 1 ? arg.size : 1;
  m.aligned = readParam<uintptr_t>(params[1]);
  m.offset = readParam<int64_t>(params[2]);
  for (uint32_t d = 0; d < arg.rank; ++d) {
    m.sizes.push_back(readParam<int64_t>(params[3 + d]));
    m.strides.push_back(readParam<int64_t>(params[3 + arg.rank + d]));
  }
  // In 64-bit arithmetic that notes overflow instead of wrapping.
  int64_t minIndex = m.offset, maxIndex = m.offset;
  for (uint32_t d = 0; d < arg.rank; ++d) {
    if (m.sizes[d] <= 0) {
      m.empty = true;
      continue;
    }
    int64_t extent;
    m.overflow |= __builtin_mul_overflow(m.sizes[d] - 1, m.strides[d], &extent);
    int64_t &end = extent < 0 ? minIndex : maxIndex;
    m.overflow |= __builtin_add_overflow(end, extent, &end);
  }
  int64_t loBytes, hiBytes;
  m.overflow |=
      __builtin_mul_overflow(minIndex, int64_t(m.elementBytes), &loBytes) ||
      __builtin_add_overflow(maxIndex, 1, &maxIndex) ||
      __builtin_mul_overflow(maxIndex, int64_t(m.elementBytes), &hiBytes);
  if (m.overflow)
    return m;
  m.lo = m.aligned + uintptr_t(loBytes);
  m.hi = m.aligned + uintptr_t(hiBytes);
  // (The address space wraps: a range whose end is below its start.)
  m.overflow = m.hi < m.lo;
  return m;
}

/// "" when memref argument `arg`'s extent fits the address space and its
/// first element sits where the kernel's vectors need it
/// (container::ArgInfo::baseAlignment), else why not, starting with "reads".
inline std::string checkBaseAlignment(const container::ArgInfo &arg,
                                      const MemRefParams &m) {
  if (m.overflow && !m.empty)
    return "has an offset, sizes and strides whose extent overflows the "
           "address space (offset " +
           std::to_string(m.offset) + ")";
  if (!arg.baseAlignment || m.empty ||
      m.firstElement() % arg.baseAlignment == 0)
    return "";
  return "reads its buffer as vectors of " + std::to_string(arg.baseAlignment) +
         " bytes, so its first element must be a multiple of " +
         std::to_string(arg.baseAlignment) + " bytes, but it is " +
         std::to_string(m.firstElement() % arg.baseAlignment) +
         " bytes past one (pass an aligned buffer, or drop the alignment the "
         "kernel's vector loads and stores claim)";
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_KERNELARGS_H
