// kiln-bench's GLSL reference for BabelStream's kernels: the algorithms of
// benchmarks/kernels/stream.mlir written by hand. Built once per kernel and
// element type: glslc -DKERNEL=COPY|MUL|ADD|TRIAD|DOT -DT=float|double.
// Arrays are bound in the order of the Kiln kernel's arguments; their
// length comes from the bound range. Workgroups are numbered across a 2-D
// grid, as in the Kiln kernels.
#version 450
#define COPY 0
#define MUL 1
#define ADD 2
#define TRIAD 3
#define DOT 4

layout(local_size_x = 256) in;

const T scalar = T(0.4);

#if KERNEL == COPY
layout(binding = 0) readonly buffer A { T a[]; };
layout(binding = 1) writeonly buffer C { T c[]; };
void main() {
  uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256 +
           gl_LocalInvocationID.x;
  if (i < a.length())
    c[i] = a[i];
}
#elif KERNEL == MUL
layout(binding = 0) writeonly buffer B { T b[]; };
layout(binding = 1) readonly buffer C { T c[]; };
void main() {
  uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256 +
           gl_LocalInvocationID.x;
  if (i < b.length())
    b[i] = scalar * c[i];
}
#elif KERNEL == ADD
layout(binding = 0) readonly buffer A { T a[]; };
layout(binding = 1) readonly buffer B { T b[]; };
layout(binding = 2) writeonly buffer C { T c[]; };
void main() {
  uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256 +
           gl_LocalInvocationID.x;
  if (i < a.length())
    c[i] = a[i] + b[i];
}
#elif KERNEL == TRIAD
layout(binding = 0) writeonly buffer A { T a[]; };
layout(binding = 1) readonly buffer B { T b[]; };
layout(binding = 2) readonly buffer C { T c[]; };
void main() {
  uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256 +
           gl_LocalInvocationID.x;
  if (i < a.length())
    a[i] = b[i] + scalar * c[i];
}
#elif KERNEL == DOT
layout(binding = 0) readonly buffer A { T a[]; };
layout(binding = 1) readonly buffer B { T b[]; };
layout(binding = 2) writeonly buffer Sum { T sum[]; };
shared T partial[256];
void main() {
  uint tid = gl_LocalInvocationID.x;
  uint n = a.length();
  uint stride = gl_NumWorkGroups.x * 256;
  T s = T(0);
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride)
    s += a[i] * b[i];
  partial[tid] = s;
  barrier();
  for (uint offset = 128; offset > 0; offset /= 2) {
    if (tid < offset)
      partial[tid] += partial[tid + offset];
    barrier();
  }
  if (tid == 0)
    sum[gl_WorkGroupID.x] = partial[0];
}
#else
#error KERNEL must be COPY, MUL, ADD, TRIAD or DOT
#endif
