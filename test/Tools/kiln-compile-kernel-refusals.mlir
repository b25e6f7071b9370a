// What a kernel cannot do is refused by every front door with a located
// error naming the limit or the function, on both targets.
// RUN: not kiln-compile %s --target=cuda --emit=ptx -o %t 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not kiln-compile %s --target=vulkan --target-env=desktop --emit=spirv -o %t 2>&1 | FileCheck %s --check-prefix=VKBLOCK
// RUN: not kiln-opt %s --kiln-gpu-to-cuda=format=ptx 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not kiln-compile %S/Inputs/kernel-calls-host-function.mlir --target=cuda --emit=ptx -o %t 2>&1 | FileCheck %S/Inputs/kernel-calls-host-function.mlir
// RUN: not kiln-compile %S/Inputs/kernel-calls-host-function.mlir --target=vulkan --emit=spirv -o %t 2>&1 | FileCheck %S/Inputs/kernel-calls-host-function.mlir
// RUN: not kiln-vulkan-runner %S/Inputs/kernel-calls-host-function.mlir -e host_call 2>&1 | FileCheck %S/Inputs/kernel-calls-host-function.mlir

// BLOCK: kiln-compile-kernel-refusals.mlir:[[@LINE+5]]:3: error: launch of kernel 'big_kernel' has 4096 threads in block dimension x; CUDA allows 1 to 1024
// VKBLOCK: kiln-compile-kernel-refusals.mlir:[[@LINE+4]]:3: error: block size (4096, 1, 1) of kernel 'big_kernel' is above the target env's limit in x: 4096 > 1024 (max_compute_workgroup_size); target env 'desktop' (choose another with
func.func @big(%o: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4096, %sy = %c1, %sz = %c1) {
    %v = memref.load %o[%tx] : memref<4096xf32>
    memref.store %v, %o[%tx] : memref<4096xf32>
    gpu.terminator
  }
  return
}

