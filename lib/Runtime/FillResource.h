//===- FillResource.h - Upstream's fillResource helpers ---------*- C++ -*-===//
//
// `fillResource{1,2,3}D{Float,Int,Int32,Int16,Int8,Half}(memref, value)`,
// the helpers that MLIR's Vulkan integration programs declare and call from
// host code, exported by every runtime under both names such a call can
// take (docs/abi.md, "External functions"):
//
//   _mlir_ciface_fillResource1DFloat(descriptor *, float)  - the callee of a
//     function with `llvm.emit_c_interface`, which upstream's
//     -test-vulkan-runner-pipeline requests for every function;
//   fillResource1DFloat(allocated, aligned, offset, sizes..., strides...,
//     float)  - the plain call, as Kiln's pipelines, upstream's
//     -gpu-lower-to-nvvm-pipeline and convert-func-to-llvm emit it.
//
// Included by Common/MGPU.cpp, which every runtime library compiles, and
// which then says KILN_DEFINE_FILL_RESOURCE_HELPERS.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_FILLRESOURCE_H
#define KILN_RUNTIME_FILLRESOURCE_H

#include <cstdint>
#include <cstring>

namespace kiln {
namespace fill {

template <typename T, int N> struct MemRefDescriptor {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};

/// Stores `value` at every element of the view (offset and strides honoured).
template <typename T, int N>
void fillView(T *aligned, int64_t offset, const int64_t *sizes,
              const int64_t *strides, T value) {
  if (!aligned)
    return;
  for (int d = 0; d < N; ++d)
    if (sizes[d] <= 0)
      return;
  int64_t index[N] = {};
  while (true) {
    int64_t linear = offset;
    for (int d = 0; d < N; ++d)
      linear += index[d] * strides[d];
    aligned[linear] = value;
    int d = N - 1;
    while (d >= 0 && ++index[d] == sizes[d])
      index[d--] = 0;
    if (d < 0)
      return;
  }
}

template <typename T, int N>
void fillDescriptor(MemRefDescriptor<T, N> *m, T value) {
  if (m)
    fillView<T, N>(m->aligned, m->offset, m->sizes, m->strides, value);
}

/// An f16 argument arrives in the low 16 bits of the first floating-point
/// register (x86-64 SysV and AArch64 both); a `float` parameter reads that
/// register, and its low 16 bits are the half's bits.
inline uint16_t halfBits(float carrier) {
  uint32_t bits;
  std::memcpy(&bits, &carrier, sizeof(bits));
  return static_cast<uint16_t>(bits);
}

} // namespace fill
} // namespace kiln

// One element type: NAME is upstream's suffix, T the stored type, V the
// parameter type and CONV what turns V into T.
#define KILN_FILL_HELPERS(EXPORT, NAME, T, V, CONV)                            \
  EXPORT void _mlir_ciface_fillResource1D##NAME(                               \
      kiln::fill::MemRefDescriptor<T, 1> *m, V value) {                        \
    kiln::fill::fillDescriptor<T, 1>(m, CONV(value));                          \
  }                                                                            \
  EXPORT void _mlir_ciface_fillResource2D##NAME(                               \
      kiln::fill::MemRefDescriptor<T, 2> *m, V value) {                        \
    kiln::fill::fillDescriptor<T, 2>(m, CONV(value));                          \
  }                                                                            \
  EXPORT void _mlir_ciface_fillResource3D##NAME(                               \
      kiln::fill::MemRefDescriptor<T, 3> *m, V value) {                        \
    kiln::fill::fillDescriptor<T, 3>(m, CONV(value));                          \
  }                                                                            \
  EXPORT void fillResource1D##NAME(T *, T *aligned, int64_t offset,            \
                                   int64_t size0, int64_t stride0, V value) {  \
    int64_t sizes[] = {size0}, strides[] = {stride0};                          \
    kiln::fill::fillView<T, 1>(aligned, offset, sizes, strides, CONV(value));  \
  }                                                                            \
  EXPORT void fillResource2D##NAME(T *, T *aligned, int64_t offset,            \
                                   int64_t size0, int64_t size1,               \
                                   int64_t stride0, int64_t stride1,           \
                                   V value) {                                  \
    int64_t sizes[] = {size0, size1}, strides[] = {stride0, stride1};          \
    kiln::fill::fillView<T, 2>(aligned, offset, sizes, strides, CONV(value));  \
  }                                                                            \
  EXPORT void fillResource3D##NAME(                                            \
      T *, T *aligned, int64_t offset, int64_t size0, int64_t size1,           \
      int64_t size2, int64_t stride0, int64_t stride1, int64_t stride2,        \
      V value) {                                                               \
    int64_t sizes[] = {size0, size1, size2};                                   \
    int64_t strides[] = {stride0, stride1, stride2};                           \
    kiln::fill::fillView<T, 3>(aligned, offset, sizes, strides, CONV(value));  \
  }

#define KILN_FILL_SAME(value) (value)

/// Defines every helper, `extern "C"`, each marked EXPORT.
#define KILN_DEFINE_FILL_RESOURCE_HELPERS(EXPORT)                              \
  extern "C" {                                                                 \
  KILN_FILL_HELPERS(EXPORT, Float, float, float, KILN_FILL_SAME)               \
  KILN_FILL_HELPERS(EXPORT, Int, int32_t, int32_t, KILN_FILL_SAME)             \
  KILN_FILL_HELPERS(EXPORT, Int32, int32_t, int32_t, KILN_FILL_SAME)           \
  KILN_FILL_HELPERS(EXPORT, Int16, int16_t, int16_t, KILN_FILL_SAME)           \
  KILN_FILL_HELPERS(EXPORT, Int8, int8_t, int8_t, KILN_FILL_SAME)              \
  KILN_FILL_HELPERS(EXPORT, Half, uint16_t, float, kiln::fill::halfBits)       \
  }

#endif // KILN_RUNTIME_FILLRESOURCE_H
