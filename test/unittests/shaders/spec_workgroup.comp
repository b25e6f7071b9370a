#version 450
// strided_store with its workgroup size x set by specialization constant 7
// (default 1) and read through gl_WorkGroupSize: SPIR-V 1.0 gives a
// WorkgroupSize built-in, SPIR-V 1.6 LocalSizeId of the spec constant.
layout(local_size_x_id = 7) in;
layout(std430, set = 0, binding = 0) buffer Data { int data[]; };
layout(push_constant) uniform Meta { int offset; int size; int stride; } meta;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i < meta.size)
    data[meta.offset + i * meta.stride] = int(gl_WorkGroupSize.x);
}
