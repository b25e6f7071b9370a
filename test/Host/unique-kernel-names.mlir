// RUN: kiln-opt %s --kiln-unique-kernel-names | FileCheck %s
// @a::@b_c and @a_b::@c would share the kernel name global `a_b_c_name` of
// gpu.launch_func's LLVM translation: @a_b is renamed (past @a_b_0, which
// is taken), with its launch; names that do not meet stay.

// CHECK: gpu.module @a {
// CHECK: gpu.module @a_b_1 {
// CHECK: gpu.module @a_b_0 {
// CHECK: gpu.module @m {
// CHECK: gpu.launch_func @a::@b_c
// CHECK: gpu.launch_func @a_b_1::@c
// CHECK: gpu.launch_func @a_b_0::@k
// CHECK: gpu.launch_func @m::@k

module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @b_c() kernel { gpu.return }
  }
  gpu.module @a_b {
    gpu.func @c() kernel { gpu.return }
  }
  gpu.module @a_b_0 {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @m {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@b_c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @a_b::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @a_b_0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
