//===- RunnerUtils.cpp - Kiln's runner utilities, no LLVM -----------------===//
//
// The functions MLIR programs call to print and check results, with the
// output format of MLIR's libmlir_runner_utils and libmlir_c_runner_utils, so
// that FileCheck lines written against mlir-runner hold for Kiln's
// ahead-of-time executables. Neither library can go into an executable that
// must run without LLVM (they are shared libraries of the LLVM build), so Kiln
// carries its own. test/Integration/AOT/runner-utils-format.mlir compares the
// two outputs character for character.
//
// Format notes (what MLIR's libraries do, through std::ostream):
//   floats    "%g" (ostream's default precision 6), also for f16/bf16;
//   complex   "(re,im)";
//   i8        written as a character (ostream treats int8_t as char);
//   index     unsigned 64-bit;
//   pointers  "0x..." in hex, null as "0".
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/time.h>
#include <vector>
#include <algorithm>

#define KILN_RU_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

//===-- Descriptors -------------------------------------------------------===//

/// A ranked memref descriptor: {allocated, aligned, offset, sizes[R],
/// strides[R]}, with R known only at run time.
struct RankedHeader {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; // sizes[rank], then strides[rank]
};

/// An unranked memref: {rank, pointer to the ranked descriptor}.
struct Unranked {
  int64_t rank;
  void *descriptor;
};

template <typename T> struct View {
  T *data;
  int64_t rank;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

template <typename T> View<T> viewOf(int64_t rank, void *descriptor) {
  auto *h = static_cast<RankedHeader *>(descriptor);
  return {static_cast<T *>(h->aligned), rank, h->offset, h->sizesAndStrides,
          h->sizesAndStrides + rank};
}

//===-- Elements ----------------------------------------------------------===//

struct F16 {
  uint16_t bits;
};
struct BF16 {
  uint16_t bits;
};
struct C32 {
  float re, im;
};
struct C64 {
  double re, im;
};
using Index = uint64_t;

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalize into a float.
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ff;
    bits = sign | (uint32_t(113 - shift) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

float bf16ToFloat(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

void put(FILE *out, int8_t v) { std::fputc(static_cast<char>(v), out); }
void put(FILE *out, int16_t v) { std::fprintf(out, "%d", v); }
void put(FILE *out, int32_t v) { std::fprintf(out, "%" PRId32, v); }
void put(FILE *out, int64_t v) { std::fprintf(out, "%" PRId64, v); }
void put(FILE *out, Index v) { std::fprintf(out, "%" PRIu64, v); }
void put(FILE *out, float v) { std::fprintf(out, "%g", v); }
void put(FILE *out, double v) { std::fprintf(out, "%g", v); }
void put(FILE *out, F16 v) { put(out, halfToFloat(v.bits)); }
void put(FILE *out, BF16 v) { put(out, bf16ToFloat(v.bits)); }
void put(FILE *out, C32 v) { std::fprintf(out, "(%g,%g)", v.re, v.im); }
void put(FILE *out, C64 v) { std::fprintf(out, "(%g,%g)", v.re, v.im); }

void putPointer(FILE *out, const void *p) {
  if (!p)
    std::fputs("0", out);
  else
    std::fprintf(out, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(p));
}

//===-- Printing ----------------------------------------------------------===//

void putList(FILE *out, const int64_t *values, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    std::fprintf(out, i ? ", %" PRId64 : "%" PRId64, values[i]);
}

template <typename T> void putMetadata(FILE *out, const View<T> &v) {
  std::fputs("base@ = ", out);
  putPointer(out, v.data);
  std::fprintf(out, " rank = %" PRId64 " offset = %" PRId64 " sizes = [",
               v.rank, v.offset);
  putList(out, v.sizes, v.rank);
  std::fputs("] strides = [", out);
  putList(out, v.strides, v.rank);
  std::fputs("]", out);
}

void putSpaces(FILE *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    std::fputc(' ', out);
}

/// Nested brackets, one row per line below the innermost dimension, each
/// level indented by one more space: MLIR's layout.
template <typename T>
void putData(FILE *out, const View<T> &v, int64_t dim, int64_t offset,
             const int64_t *sizes, const int64_t *strides) {
  if (dim == 0) {
    put(out, v.data[offset]);
    return;
  }
  int64_t n = sizes[0];
  std::fputc('[', out);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0)
      putSpaces(out, v.rank - dim + 1);
    putData(out, v, dim - 1, offset + i * strides[0], sizes + 1, strides + 1);
    if (i + 1 < n) {
      std::fputs(", ", out);
      if (dim > 1)
        std::fputc('\n', out);
    }
  }
  std::fputc(']', out);
}

template <typename T> void printMemref(const char *kind, const View<T> &v) {
  std::fputs(kind, stdout);
  putMetadata(stdout, v);
  std::fputs(" data = \n", stdout);
  if (v.rank == 0)
    std::fputc('[', stdout);
  putData(stdout, v, v.rank, v.offset, v.sizes, v.strides);
  if (v.rank == 0)
    std::fputc(']', stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

template <typename T> void printUnranked(void *m) {
  auto *u = static_cast<Unranked *>(m);
  printMemref("Unranked Memref ", viewOf<T>(u->rank, u->descriptor));
}

template <typename T> void printShape(void *m) {
  auto *u = static_cast<Unranked *>(m);
  std::fputs("Unranked Memref ", stdout);
  putMetadata(stdout, viewOf<T>(u->rank, u->descriptor));
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

//===-- Verification ------------------------------------------------------===//

template <typename T> bool closeFloat(T actual, T expected, T epsilon) {
  if (!std::isfinite(actual) || !std::isfinite(expected))
    return false;
  return std::fabs(actual - expected) <= epsilon * std::fabs(expected);
}

template <typename T> bool same(T a, T e) { return a == e; }
bool same(float a, float e) { return closeFloat(a, e, 1e-6f); }
bool same(double a, double e) { return closeFloat(a, e, 1e-12); }
bool same(F16 a, F16 e) { return a.bits == e.bits; }
bool same(BF16 a, BF16 e) { return a.bits == e.bits; }
bool same(C32 a, C32 e) { return a.re == e.re && a.im == e.im; }
bool same(C64 a, C64 e) { return a.re == e.re && a.im == e.im; }

template <typename T>
int64_t verifyData(const View<T> &a, const View<T> &e, int64_t dim,
                   int64_t offset, int64_t &printed) {
  if (dim == 0) {
    if (same(a.data[offset], e.data[offset]))
      return 0;
    if (printed < 10) {
      put(stderr, a.data[offset]);
      std::fputs(" != ", stderr);
      put(stderr, e.data[offset]);
      std::fprintf(stderr, " offset = %" PRId64 "\n", offset);
      ++printed;
    }
    return 1;
  }
  int64_t d = a.rank - dim;
  int64_t errors = 0;
  for (int64_t i = 0; i < a.sizes[d]; ++i)
    errors += verifyData(a, e, dim - 1, offset + i * a.strides[d], printed);
  return errors;
}

/// Number of differing elements, or -1 when the shapes differ.
template <typename T> int64_t verify(const View<T> &a, const View<T> &e) {
  bool shapesMatch = a.rank == e.rank && a.offset == e.offset;
  for (int64_t i = 0; shapesMatch && i < a.rank; ++i)
    shapesMatch = a.sizes[i] == e.sizes[i] && a.strides[i] == e.strides[i];
  if (!shapesMatch) {
    putMetadata(stderr, a);
    putMetadata(stderr, e);
    return -1;
  }
  int64_t printed = 0;
  return verifyData(a, e, a.rank, a.offset, printed);
}

template <typename T> int64_t verifyUnranked(void *actual, void *expected) {
  auto *a = static_cast<Unranked *>(actual);
  auto *e = static_cast<Unranked *>(expected);
  return verify(viewOf<T>(a->rank, a->descriptor),
                viewOf<T>(e->rank, e->descriptor));
}

} // namespace

//===-- Memref printing and verification: the C interface -----------------===//

// Each element type gets the unranked entry points MLIR's library has:
// _mlir_ciface_printMemrefX(unranked *), printMemrefX(rank, descriptor *),
// _mlir_ciface_printMemrefShapeX, and the verifyMemRefX pair.
#define KILN_MEMREF_ENTRY_POINTS(SUFFIX, TYPE)                                 \
  KILN_RU_EXPORT void _mlir_ciface_printMemref##SUFFIX(void *m) {              \
    printUnranked<TYPE>(m);                                                    \
  }                                                                            \
  KILN_RU_EXPORT void printMemref##SUFFIX(int64_t rank, void *descriptor) {    \
    Unranked u{rank, descriptor};                                              \
    printUnranked<TYPE>(&u);                                                   \
  }                                                                            \
  KILN_RU_EXPORT void _mlir_ciface_printMemrefShape##SUFFIX(void *m) {         \
    printShape<TYPE>(m);                                                       \
  }                                                                            \
  KILN_RU_EXPORT int64_t _mlir_ciface_verifyMemRef##SUFFIX(void *actual,       \
                                                           void *expected) {   \
    return verifyUnranked<TYPE>(actual, expected);                             \
  }                                                                            \
  KILN_RU_EXPORT int64_t verifyMemRef##SUFFIX(int64_t rank, void *actual,      \
                                              void *expected) {                \
    Unranked a{rank, actual}, e{rank, expected};                               \
    return verifyUnranked<TYPE>(&a, &e);                                       \
  }

KILN_MEMREF_ENTRY_POINTS(I8, int8_t)
KILN_MEMREF_ENTRY_POINTS(I16, int16_t)
KILN_MEMREF_ENTRY_POINTS(I32, int32_t)
KILN_MEMREF_ENTRY_POINTS(I64, int64_t)
KILN_MEMREF_ENTRY_POINTS(Ind, Index)
KILN_MEMREF_ENTRY_POINTS(F16, F16)
KILN_MEMREF_ENTRY_POINTS(BF16, BF16)
KILN_MEMREF_ENTRY_POINTS(F32, float)
KILN_MEMREF_ENTRY_POINTS(F64, double)
KILN_MEMREF_ENTRY_POINTS(C32, C32)
KILN_MEMREF_ENTRY_POINTS(C64, C64)
#undef KILN_MEMREF_ENTRY_POINTS

// Ranked variants: the descriptor pointer is the ranked descriptor itself.
#define KILN_RANKED_PRINT(NAME, TYPE, RANK)                                    \
  KILN_RU_EXPORT void _mlir_ciface_printMemref##NAME(void *descriptor) {       \
    printMemref("Memref ", viewOf<TYPE>(RANK, descriptor));                   \
  }

KILN_RANKED_PRINT(0dF32, float, 0)
KILN_RANKED_PRINT(1dF32, float, 1)
KILN_RANKED_PRINT(2dF32, float, 2)
KILN_RANKED_PRINT(3dF32, float, 3)
KILN_RANKED_PRINT(4dF32, float, 4)
KILN_RANKED_PRINT(1dI8, int8_t, 1)
KILN_RANKED_PRINT(1dI32, int32_t, 1)
KILN_RANKED_PRINT(1dI64, int64_t, 1)
KILN_RANKED_PRINT(1dF64, double, 1)
KILN_RANKED_PRINT(1dInd, Index, 1)
KILN_RANKED_PRINT(1dC32, C32, 1)
KILN_RANKED_PRINT(1dC64, C64, 1)
#undef KILN_RANKED_PRINT

//===-- Scalars, for vector.print and hand-written printing ---------------===//

KILN_RU_EXPORT void printI64(int64_t i) { put(stdout, i); }
KILN_RU_EXPORT void printU64(uint64_t u) { put(stdout, Index(u)); }
KILN_RU_EXPORT void printF32(float f) { put(stdout, f); }
KILN_RU_EXPORT void printF64(double d) { put(stdout, d); }
KILN_RU_EXPORT void printF16(uint16_t bits) { put(stdout, F16{bits}); }
KILN_RU_EXPORT void printBF16(uint16_t bits) { put(stdout, BF16{bits}); }
KILN_RU_EXPORT void printString(const char *s) { std::fputs(s, stdout); }
KILN_RU_EXPORT void printCString(const char *s) { std::fputs(s, stdout); }
KILN_RU_EXPORT void printOpen() { std::fputs("( ", stdout); }
KILN_RU_EXPORT void printClose() { std::fputs(" )", stdout); }
KILN_RU_EXPORT void printComma() { std::fputs(", ", stdout); }
KILN_RU_EXPORT void printNewline() { std::fputc('\n', stdout); }
KILN_RU_EXPORT void printFlops(double flops) {
  std::fprintf(stderr, "%lf GFLOPS\n", flops / 1.0e9);
}

//===-- Time --------------------------------------------------------------===//

KILN_RU_EXPORT double rtclock() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec + tv.tv_usec * 1.0e-6;
}

KILN_RU_EXPORT int64_t _mlir_ciface_nanoTime() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

//===-- Memory ------------------------------------------------------------===//

KILN_RU_EXPORT void *mlirAlloc(uint64_t size) { return std::malloc(size); }
KILN_RU_EXPORT void *mlirAlignedAlloc(uint64_t alignment, uint64_t size) {
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(alignment, (size + alignment - 1) / alignment *
                                           alignment);
}
KILN_RU_EXPORT void mlirFree(void *p) { std::free(p); }
KILN_RU_EXPORT void mlirAlignedFree(void *p) { std::free(p); }

/// memref.copy between layouts the compiler could not turn into a memcpy.
KILN_RU_EXPORT void memrefCopy(int64_t elementSize, void *source,
                               void *destination) {
  auto *s = static_cast<Unranked *>(source);
  auto *d = static_cast<Unranked *>(destination);
  View<char> src = viewOf<char>(s->rank, s->descriptor);
  View<char> dst = viewOf<char>(d->rank, d->descriptor);
  int64_t rank = src.rank;
  for (int64_t i = 0; i < rank; ++i)
    if (src.sizes[i] == 0)
      return;
  std::vector<int64_t> index(rank, 0);
  for (;;) {
    int64_t from = src.offset, to = dst.offset;
    for (int64_t i = 0; i < rank; ++i) {
      from += index[i] * src.strides[i];
      to += index[i] * dst.strides[i];
    }
    std::memcpy(dst.data + to * elementSize, src.data + from * elementSize,
                elementSize);
    int64_t axis = rank - 1;
    while (axis >= 0 && ++index[axis] == src.sizes[axis])
      index[axis--] = 0;
    if (axis < 0)
      return;
  }
}

#define KILN_STD_SORT(SUFFIX, TYPE)                                            \
  KILN_RU_EXPORT void _mlir_ciface_stdSort##SUFFIX(uint64_t n,                 \
                                                   void *descriptor) {         \
    View<TYPE> v = viewOf<TYPE>(1, descriptor);                                \
    std::sort(v.data + v.offset, v.data + v.offset + n);                       \
  }
KILN_STD_SORT(I64, int64_t)
KILN_STD_SORT(F64, double)
KILN_STD_SORT(F32, float)
#undef KILN_STD_SORT
