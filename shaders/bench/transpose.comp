// kiln-bench's GLSL reference for benchmarks/kernels/transpose.mlir.
#version 450
layout(local_size_x = 32, local_size_y = 8) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
layout(binding = 2) readonly buffer Shape { uint rows; uint cols; };
shared float tile[32][33];

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint bx32 = gl_WorkGroupID.x * 32, by32 = gl_WorkGroupID.y * 32;
  uint x = bx32 + tx;
  for (uint j = 0; j < 32; j += 8) {
    uint y = by32 + ty + j;
    if (x < cols && y < rows)
      tile[ty + j][tx] = src[y * cols + x];
  }
  barrier();
  uint ox = by32 + tx;
  for (uint j = 0; j < 32; j += 8) {
    uint oy = bx32 + ty + j;
    if (ox < rows && oy < cols)
      dst[oy * rows + ox] = tile[tx][ty + j];
  }
}
