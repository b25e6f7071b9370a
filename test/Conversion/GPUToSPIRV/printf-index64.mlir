// RUN: kiln-opt %s --kiln-gpu-to-spirv="target-env=desktop use-64bit-index=true" --verify-diagnostics
// With 64-bit indices an index is 64 bits wide in the kernel, which Vulkan's
// debug printf cannot print; with 32-bit ones (the default) it prints.

gpu.module @m {
  gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    %t = gpu.thread_id x
    // expected-error @+1 {{argument #0 is an index, 64 bits wide in this kernel (use-64bit-index), and Vulkan's debug printf prints 32-bit values; cast it with arith.index_cast to i32}}
    gpu.printf "%d\n", %t : index
    gpu.return
  }
}
