#version 450
// A static memref<Nxi32> at (0, 0): each workgroup increments its element.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { int data[]; };
void main() { data[gl_WorkGroupID.x] += 1; }
