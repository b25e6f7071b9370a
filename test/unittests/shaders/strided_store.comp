#version 450
// A kernel with Kiln's ABI for one dynamic rank-1 i32 memref: the buffer at
// (0, 0), its {offset, size, stride} in push constants at byte 0.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { int data[]; };
layout(push_constant) uniform Meta { int offset; int size; int stride; } meta;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i < meta.size)
    data[meta.offset + i * meta.stride] = i + 1;
}
