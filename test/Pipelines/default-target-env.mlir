// Every compiling door gives a GPU module without a target env the same
// profile, desktop (kiln::kDefaultVulkanTargetEnv): a 256-invocation kernel
// compiled with kiln-compile used to fail under kiln-opt --kiln-gpu-to-spirv,
// whose default was vulkan-1.1 (at most 128 invocations).
// RUN: kiln-opt %s --kiln-gpu-to-spirv | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | FileCheck %s --check-prefix=VULKAN
// RUN: rm -rf %t && kiln-compile %s --emit=container -o %t/ && ls %t | FileCheck %s --check-prefix=COMPILE
// RUN: not kiln-opt %s --kiln-gpu-to-spirv=target-env=vulkan-1.1 2>&1 | FileCheck %s --check-prefix=VK11

// CHECK: gpu.binary @main_kernel  [#gpu.object<#spirv.target_env<#spirv.vce<v1.6, [Shader, Float16
// VULKAN: llvm.func @main
// COMPILE: main_kernel.kiln
// VK11: error: block size (256, 1, 1) of kernel 'main_kernel' is above the target env's limit in x: 256 > 128 (max_compute_workgroup_size); target env 'vulkan-1.1'

func.func @main() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %buf = gpu.alloc () : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %buf[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}
