// kiln-bench's GLSL reference for benchmarks/kernels/sgemm.mlir:
// glslc -DVARIANT=NAIVE|TILED|REGISTER. C = A * B, N x N row-major, N a
// multiple of 64.
#version 450
#extension GL_EXT_control_flow_attributes : require
#define NAIVE 0
#define TILED 1
#define REGISTER 2

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer MA { float A[]; };
layout(binding = 1) readonly buffer MB { float B[]; };
layout(binding = 2) writeonly buffer MC { float C[]; };
layout(binding = 3) readonly buffer Shape { uint N; };

#if VARIANT == NAIVE
void main() {
  uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
  uint n = N;
  float acc = 0.0;
  for (uint k = 0; k < n; ++k)
    acc = fma(A[row * n + k], B[k * n + col], acc);
  C[row * n + col] = acc;
}
#elif VARIANT == TILED
shared float As[16][16];
shared float Bs[16][16];
void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
  uint n = N;
  float acc = 0.0;
  for (uint t = 0; t < n; t += 16) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    barrier();
    for (uint k = 0; k < 16; ++k)
      acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier();
  }
  C[row * n + col] = acc;
}
#elif VARIANT == REGISTER
shared vec4 As[16][16]; // As[k][m / 4]: a 16 x 64 slice of A, transposed
shared vec4 Bs[16][16]; // Bs[k][n / 4]: a 16 x 64 slice of B
void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint n = N;
  uint m0 = gl_WorkGroupID.y * 64, n0 = gl_WorkGroupID.x * 64;
  uint t = ty * 16 + tx;
  uint aRow = t / 4, aCol = (t % 4) * 4;
  uint bRow = t / 16, bCol = (t % 16) * 4;
  vec4 acc[4] = vec4[4](vec4(0), vec4(0), vec4(0), vec4(0));
  for (uint k0 = 0; k0 < n; k0 += 16) {
    uint a = (m0 + aRow) * n + k0 + aCol;
    for (uint q = 0; q < 4; ++q)
      As[aCol + q][aRow / 4][aRow % 4] = A[a + q];
    uint b = (k0 + bRow) * n + n0 + bCol;
    Bs[bRow][bCol / 4] = vec4(B[b], B[b + 1], B[b + 2], B[b + 3]);
    barrier();
    [[unroll]] for (uint k = 0; k < 16; ++k) {
      vec4 av = As[k][ty];
      vec4 bv = Bs[k][tx];
      acc[0] = fma(vec4(av.x), bv, acc[0]);
      acc[1] = fma(vec4(av.y), bv, acc[1]);
      acc[2] = fma(vec4(av.z), bv, acc[2]);
      acc[3] = fma(vec4(av.w), bv, acc[3]);
    }
    barrier();
  }
  for (uint i = 0; i < 4; ++i) {
    uint c = (m0 + ty * 4 + i) * n + n0 + tx * 4;
    C[c] = acc[i].x;
    C[c + 1] = acc[i].y;
    C[c + 2] = acc[i].z;
    C[c + 3] = acc[i].w;
  }
}
#else
#error VARIANT must be NAIVE, TILED or REGISTER
#endif
