// kiln-bench's GLSL reference for benchmarks/kernels/empty.mlir.
#version 450
layout(local_size_x = 64) in;
void main() {}
