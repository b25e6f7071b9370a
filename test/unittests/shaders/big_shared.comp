#version 450
// A raw SPIR-V kernel with 256 KiB of workgroup memory, above every
// device's maxComputeSharedMemorySize: the validation layer reports it
// (VUID-RuntimeSpirv-Workgroup-06530) at pipeline creation.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
shared uint big[65536];
void main() {
  big[gl_WorkGroupID.x] = data[gl_WorkGroupID.x];
  barrier();
  data[gl_WorkGroupID.x] = big[gl_WorkGroupID.x] + 1u;
}
