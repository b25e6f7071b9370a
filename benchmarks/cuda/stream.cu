// kiln-bench's CUDA C++ reference for benchmarks/kernels/stream.mlir (the
// same algorithms as BabelStream's CUDA model, with the bounds check and
// block size of the Kiln kernels). Loaded through Kiln's CUDA runtime from
// the fatbin nvcc builds, so both are timed the same way.
#define SCALAR 0.4

template <typename T>
__device__ void copyImpl(const T *a, T *c, unsigned long long n) {
  unsigned long long i =
      (blockIdx.y * (unsigned long long)gridDim.x + blockIdx.x) * 256ull +
      threadIdx.x;
  if (i < n)
    c[i] = a[i];
}
template <typename T>
__device__ void mulImpl(T *b, const T *c, unsigned long long n) {
  unsigned long long i =
      (blockIdx.y * (unsigned long long)gridDim.x + blockIdx.x) * 256ull +
      threadIdx.x;
  if (i < n)
    b[i] = T(SCALAR) * c[i];
}
template <typename T>
__device__ void addImpl(const T *a, const T *b, T *c, unsigned long long n) {
  unsigned long long i =
      (blockIdx.y * (unsigned long long)gridDim.x + blockIdx.x) * 256ull +
      threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
template <typename T>
__device__ void triadImpl(T *a, const T *b, const T *c, unsigned long long n) {
  unsigned long long i =
      (blockIdx.y * (unsigned long long)gridDim.x + blockIdx.x) * 256ull +
      threadIdx.x;
  if (i < n)
    a[i] = b[i] + T(SCALAR) * c[i];
}
template <typename T>
__device__ void dotImpl(const T *a, const T *b, T *sum, unsigned long long n) {
  __shared__ T partial[256];
  unsigned tid = threadIdx.x;
  T s = 0;
  for (unsigned long long i = blockIdx.x * 256ull + tid; i < n;
       i += gridDim.x * 256ull)
    s += a[i] * b[i];
  partial[tid] = s;
  __syncthreads();
  for (unsigned offset = 128; offset > 0; offset /= 2) {
    if (tid < offset)
      partial[tid] += partial[tid + offset];
    __syncthreads();
  }
  if (tid == 0)
    sum[blockIdx.x] = partial[0];
}

#define STREAM_KERNELS(T, SUFFIX)                                              \
  extern "C" __global__ void __launch_bounds__(256)                            \
      copy_##SUFFIX(const T *a, T *c, unsigned long long n) {                  \
    copyImpl(a, c, n);                                                         \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(256)                            \
      mul_##SUFFIX(T *b, const T *c, unsigned long long n) {                   \
    mulImpl(b, c, n);                                                          \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(256)                            \
      add_##SUFFIX(const T *a, const T *b, T *c, unsigned long long n) {       \
    addImpl(a, b, c, n);                                                       \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(256)                            \
      triad_##SUFFIX(T *a, const T *b, const T *c, unsigned long long n) {     \
    triadImpl(a, b, c, n);                                                     \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(256)                            \
      dot_##SUFFIX(const T *a, const T *b, T *sum, unsigned long long n) {     \
    dotImpl(a, b, sum, n);                                                     \
  }

STREAM_KERNELS(float, f32)
STREAM_KERNELS(double, f64)
