#version 450
// A kernel that runs long: each invocation of 64 per workgroup iterates
// data[0] times (lavapipe stops loops at 65535 iterations) and stores a
// result that depends on every iteration at data[1 + its global id].
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
  uint id = gl_GlobalInvocationID.x;
  uint x = id;
  for (uint i = 0; i < data[0]; ++i)
    x = x * 1664525u + 1013904223u;
  data[1 + id] = x;
}
