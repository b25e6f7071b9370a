// kiln-bench's GLSL reference for benchmarks/kernels/reduce.mlir:
// glslc -DSUBGROUP=0 (tree in workgroup memory) or -DSUBGROUP=1
// (subgroupAdd, then the subgroups' sums through workgroup memory).
#version 450
#if SUBGROUP
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float data[]; };
layout(binding = 1) writeonly buffer Sum { float sum[]; };
shared float partial[256];

void main() {
  uint tid = gl_LocalInvocationID.x;
  uint n = data.length();
  uint stride = gl_NumWorkGroups.x * 256;
  float s = 0.0;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride)
    s += data[i];
#if SUBGROUP
  float reduced = subgroupAdd(s);
  if (gl_SubgroupInvocationID == 0)
    partial[gl_SubgroupID] = reduced;
  barrier();
  if (tid == 0) {
    float total = 0.0;
    for (uint j = 0; j < gl_NumSubgroups; ++j)
      total += partial[j];
    sum[gl_WorkGroupID.x] = total;
  }
#else
  partial[tid] = s;
  barrier();
  for (uint offset = 128; offset > 0; offset /= 2) {
    if (tid < offset)
      partial[tid] += partial[tid + offset];
    barrier();
  }
  if (tid == 0)
    sum[gl_WorkGroupID.x] = partial[0];
#endif
}
