// gpu.printf: refused on Vulkan at the op, saying why and where it works;
// on CUDA a call of vprintf with the format string in the PTX.
// RUN: not kiln-opt %s --kiln-gpu-to-spirv 2>&1 | FileCheck %s --check-prefix=VULKAN
// RUN: kiln-opt %s --kiln-gpu-to-nvvm=format=ptx | FileCheck %s --check-prefix=CUDA
// VULKAN: printf.mlir:[[@LINE+10]]:5: error: 'gpu.printf' is not supported in Vulkan kernels: Kiln does not emit the debug-printf extension; on CUDA it prints through vprintf (--target=cuda)
// CUDA: gpu.binary @main_kernel
// CUDA-SAME: call.uni
// CUDA-SAME: vprintf
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    gpu.printf "thread %d\n", %t : i32
    gpu.terminator
  }
  return
}
