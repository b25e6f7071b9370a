// kiln-bench's GLSL reference for benchmarks/kernels/fma.mlir.
#version 450
layout(local_size_x = 256) in;
layout(binding = 0) writeonly buffer Out { float result[]; };
layout(binding = 1) readonly buffer Params { uint iterations; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 x = vec4(0, 1, 2, 3) + float(i);
  vec4 y = vec4(4, 5, 6, 7) + float(i);
  const vec4 a = vec4(0.999), b = vec4(0.001);
  uint n = iterations;
  for (uint k = 0; k < n; ++k) {
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
    x = fma(x, a, b); y = fma(y, a, b);
  }
  vec4 s = x + y;
  if (i < result.length())
    result[i] = s.x + s.y + s.z + s.w;
}
