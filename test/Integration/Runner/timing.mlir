// RUN: kiln-vulkan-runner %s --print-timing 2>&1 >/dev/null | FileCheck %s
// RUN: env KILN_VULKAN_TIMING=1 kiln-vulkan-runner %s 2>&1 >/dev/null | FileCheck %s
// The runtimes' flags share one truth table (lib/Runtime/EnvFlag.h): 0,
// false, off and no, in any case, are off on every runtime
// (KILN_CUDA_TIMING=false turned timing on).
// RUN: env KILN_VULKAN_TIMING=False kiln-vulkan-runner %s 2>&1 >/dev/null | count 0
// RUN: env KILN_SPIRV_CPU_TIMING=1 kiln-spirv-cpu-runner %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
// RUN: env KILN_SPIRV_CPU_TIMING=off kiln-spirv-cpu-runner %s 2>&1 >/dev/null | count 0
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_CUDA_TIMING=yes kiln-cuda-runner %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CUDA
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver KILN_CUDA_TIMING=false kiln-cuda-runner %s 2>&1 >/dev/null | count 0
// CPU: kiln-timing kernel=fill_kernel gpu_us=
// CUDA: kiln-timing kernel=fill_kernel gpu_us=
// --print-timing: one machine-readable line per launch on stderr, with the
// kernel's GPU time from timestamp queries and the host submit-to-complete time.

// CHECK: kiln-timing kernel=fill_kernel gpu_us={{[0-9.]+}} host_us={{[0-9.]+}}
// CHECK-NEXT: kiln-timing kernel=fill_kernel gpu_us={{[0-9.]+}} host_us={{[0-9.]+}}
// CHECK-NOT: kiln-timing

func.func @fill(%m: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %m[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %m = memref.alloc() : memref<64xf32>
  call @fill(%m) : (memref<64xf32>) -> ()
  call @fill(%m) : (memref<64xf32>) -> ()
  memref.dealloc %m : memref<64xf32>
  return
}
