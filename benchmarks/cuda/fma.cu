// kiln-bench's CUDA C++ references for benchmarks/kernels/fma.mlir and
// benchmarks/kernels/empty.mlir.
extern "C" __global__ void __launch_bounds__(256)
    fma_chain(float *out, unsigned long long n, int iterations) {
  unsigned long long i = blockIdx.x * 256ull + threadIdx.x;
  float f = (float)(unsigned)i;
  float x[4] = {f, f + 1, f + 2, f + 3}, y[4] = {f + 4, f + 5, f + 6, f + 7};
  for (int k = 0; k < iterations; ++k) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int l = 0; l < 4; ++l) {
        x[l] = fmaf(x[l], 0.999f, 0.001f);
        y[l] = fmaf(y[l], 0.999f, 0.001f);
      }
  }
  float s = 0;
  for (int l = 0; l < 4; ++l)
    s += x[l] + y[l];
  if (i < n)
    out[i] = s;
}

extern "C" __global__ void empty() {}
