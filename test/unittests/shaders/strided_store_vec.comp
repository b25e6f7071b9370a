#version 450
// strided_store read as Kiln reads a buffer of vectors: the i32 memref at
// (0, 0) is an array of 32-byte blocks (ArrayStride 32), so the container
// gives its argument base alignment 32. {offset, size, stride} in push
// constants at byte 0, counted in i32 elements.
layout(local_size_x = 64) in;
struct Block { int v[8]; };
layout(std430, set = 0, binding = 0) buffer Data { Block data[]; };
layout(push_constant) uniform Meta { int offset; int size; int stride; } meta;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i < meta.size) {
    int e = meta.offset + i * meta.stride;
    data[e / 8].v[e % 8] = i + 1;
  }
}
