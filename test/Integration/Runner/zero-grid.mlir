// A launch with an empty grid (a size computed as 0 at run time) is refused
// with the kernel and the dimension named, on Vulkan as on CUDA, JIT and
// ahead of time, instead of silently doing nothing.
// RUN: not kiln-vulkan-runner %s 2>&1 | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s
// RUN: kiln-compile %s --target=cuda --format=ptx --emit=exe -o %t.cuda
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %t.cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// CHECK: kiln-vulkan: kernel 'main_kernel' launched with 0 workgroups in x; device '{{.*}}' allows 1 to {{[0-9]+}} (maxComputeWorkGroupCount)
// CUDA: kiln-cuda: kernel 'main_kernel' launched with grid (0, 1, 1) and block (8, 1, 1): every dimension must be at least 1

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.alloc(%c0) : memref<?xf32>
  %size = memref.dim %n, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %size, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %n[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
