// kiln-bench's CUDA C++ reference for benchmarks/kernels/transpose.mlir.
extern "C" __global__ void __launch_bounds__(256)
    transpose(const float *in, float *out, unsigned rows, unsigned cols) {
  __shared__ float tile[32][33];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned bx32 = blockIdx.x * 32, by32 = blockIdx.y * 32;
  unsigned x = bx32 + tx;
  for (unsigned j = 0; j < 32; j += 8) {
    unsigned y = by32 + ty + j;
    if (x < cols && y < rows)
      tile[ty + j][tx] = in[(size_t)y * cols + x];
  }
  __syncthreads();
  unsigned ox = by32 + tx;
  for (unsigned j = 0; j < 32; j += 8) {
    unsigned oy = bx32 + ty + j;
    if (ox < rows && oy < cols)
      out[(size_t)oy * rows + ox] = tile[tx][ty + j];
  }
}
