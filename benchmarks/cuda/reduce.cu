// kiln-bench's CUDA C++ reference for benchmarks/kernels/reduce.mlir.
extern "C" __global__ void __launch_bounds__(256)
    sum_workgroup(const float *in, float *sum, unsigned long long n) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  float s = 0;
  for (unsigned long long i = blockIdx.x * 256ull + tid; i < n;
       i += gridDim.x * 256ull)
    s += in[i];
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

extern "C" __global__ void __launch_bounds__(256)
    sum_subgroup(const float *in, float *sum, unsigned long long n) {
  __shared__ float partial[8];
  unsigned tid = threadIdx.x;
  float s = 0;
  for (unsigned long long i = blockIdx.x * 256ull + tid; i < n;
       i += gridDim.x * 256ull)
    s += in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    s += __shfl_xor_sync(0xffffffffu, s, offset);
  if (tid % 32 == 0)
    partial[tid / 32] = s;
  __syncthreads();
  if (tid == 0) {
    float total = 0;
    for (int j = 0; j < 8; ++j)
      total += partial[j];
    sum[blockIdx.x] = total;
  }
}
