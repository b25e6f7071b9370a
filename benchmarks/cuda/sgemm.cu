// kiln-bench's CUDA C++ reference for benchmarks/kernels/sgemm.mlir:
// C = A * B, N x N row-major, N a multiple of 64.
extern "C" __global__ void __launch_bounds__(256)
    sgemm_naive(const float *A, const float *B, float *C, unsigned n) {
  unsigned row = blockIdx.y * 16 + threadIdx.y;
  unsigned col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < n; ++k)
    acc = fmaf(A[(size_t)row * n + k], B[(size_t)k * n + col], acc);
  C[(size_t)row * n + col] = acc;
}

extern "C" __global__ void __launch_bounds__(256)
    sgemm_tiled(const float *A, const float *B, float *C, unsigned n) {
  __shared__ float As[16][16], Bs[16][16];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0;
  for (unsigned t = 0; t < n; t += 16) {
    As[ty][tx] = A[(size_t)row * n + t + tx];
    Bs[ty][tx] = B[(size_t)(t + ty) * n + col];
    __syncthreads();
    for (unsigned k = 0; k < 16; ++k)
      acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  C[(size_t)row * n + col] = acc;
}

extern "C" __global__ void __launch_bounds__(256)
    sgemm_register(const float *A, const float *B, float *C, unsigned n) {
  __shared__ float4 As[16][16]; // a 16 x 64 slice of A, transposed
  __shared__ float4 Bs[16][16]; // a 16 x 64 slice of B
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  unsigned t = ty * 16 + tx;
  unsigned aRow = t / 4, aCol = (t % 4) * 4;
  unsigned bRow = t / 16, bCol = (t % 16) * 4;
  float4 acc[4] = {};
  for (unsigned k0 = 0; k0 < n; k0 += 16) {
    float4 a = *reinterpret_cast<const float4 *>(
        &A[(size_t)(m0 + aRow) * n + k0 + aCol]);
    reinterpret_cast<float *>(&As[aCol + 0][aRow / 4])[aRow % 4] = a.x;
    reinterpret_cast<float *>(&As[aCol + 1][aRow / 4])[aRow % 4] = a.y;
    reinterpret_cast<float *>(&As[aCol + 2][aRow / 4])[aRow % 4] = a.z;
    reinterpret_cast<float *>(&As[aCol + 3][aRow / 4])[aRow % 4] = a.w;
    Bs[bRow][bCol / 4] = *reinterpret_cast<const float4 *>(
        &B[(size_t)(k0 + bRow) * n + n0 + bCol]);
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < 16; ++k) {
      float4 av = As[k][ty], bv = Bs[k][tx];
      float as[4] = {av.x, av.y, av.z, av.w};
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        acc[i].x = fmaf(as[i], bv.x, acc[i].x);
        acc[i].y = fmaf(as[i], bv.y, acc[i].y);
        acc[i].z = fmaf(as[i], bv.z, acc[i].z);
        acc[i].w = fmaf(as[i], bv.w, acc[i].w);
      }
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    *reinterpret_cast<float4 *>(&C[(size_t)(m0 + ty * 4 + i) * n + n0 +
                                   tx * 4]) = acc[i];
}
