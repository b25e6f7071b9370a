#version 450
// A static memref<Nxi32> at (0, 0): each workgroup prints its element with
// debug printf (NonSemantic.DebugPrintf) and increments it.
#extension GL_EXT_debug_printf : enable
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { int data[]; };
void main() {
  debugPrintfEXT("kiln-print %d\n", data[gl_WorkGroupID.x]);
  data[gl_WorkGroupID.x] += 1;
}
