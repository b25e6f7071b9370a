// Without a CUDA toolkit, cubin and fatbin fall back to PTX with a remark;
// libdevice calls are an error; an explicit --cuda-path must hold ptxas.
// RUN: env -u CUDA_PATH PATH=%t.nowhere KILN_CUDA_PREFIXES=%t.nowhere \
// RUN:   kiln-opt %s --kiln-gpu-to-nvvm="format=cubin" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: not env -u CUDA_PATH PATH=%t.nowhere KILN_CUDA_PREFIXES=%t.nowhere \
// RUN:   kiln-opt %S/Inputs/exp-kernel.mlir --kiln-gpu-to-nvvm 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// RUN: not kiln-opt %s --kiln-gpu-to-nvvm="cuda-path=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=EXPLICIT

// REMARK: remark: no CUDA toolkit found (looked in PATH, {{.*}}.nowhere): emitting PTX instead of cubin; the driver compiles it when the module is loaded
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">, properties = {{.*}}, assembly = "
// LIBDEVICE: exp-kernel.mlir:{{[0-9]+}}:{{[0-9]+}}: error: GPU module 'kernels' calls '__nv_expf' from libdevice, which comes with the CUDA toolkit: none found (looked in PATH, {{.*}}.nowhere)
// EXPLICIT: error: kiln-nvvm-to-binary: no CUDA toolkit at '{{.*}}.nowhere' (it has no executable bin/ptxas)
gpu.module @kernels {
  gpu.func @k(%buf: memref<4xf32>) kernel {
    %i = gpu.thread_id x
    %c = arith.constant 1.0 : f32
    memref.store %c, %buf[%i] : memref<4xf32>
    gpu.return
  }
}
