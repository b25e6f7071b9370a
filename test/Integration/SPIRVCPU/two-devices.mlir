// The two-device program (test/Integration/Inputs/two-devices.mlir) and the
// two-device example on spirv-cpu: each entry of --device is a CPU device
// with its share of the worker threads, through every front door.
// RUN: kiln-spirv-cpu-runner %S/../Inputs/two-devices.mlir --device=0,0 | FileCheck %s
// RUN: kiln-spirv-cpu-runner %S/../Inputs/two-devices.mlir --device=0,cpu,0 --cpu-threads=3 --print-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: kiln-opt %S/../Inputs/two-devices.mlir --kiln-gpu-to-spirv-cpu | env KILN_SPIRV_CPU_DEVICE=0,0 %mlir_runner - -e main --entry-point-result=void --shared-libs=%kiln_lib_dir/libkiln_spirv_cpu_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s
// RUN: kiln-compile %S/../Inputs/two-devices.mlir --target=spirv-cpu --emit=exe -o %t.exe
// RUN: %t.exe --device=0,0 | FileCheck %s
// RUN: env KILN_SPIRV_CPU_DEVICE=0,0 %t.exe | FileCheck %s
// RUN: kiln-spirv-cpu-runner %kiln_src_root/examples/two-devices.mlir --device=0,0 | FileCheck %s --check-prefix=EXAMPLE

// CHECK: [0,  6,  12,  18,  24,  30,  36,  42]
// CHECK: [0,  2,  4,  6,  8,  10,  12,  14]
// CHECK: [0,  18,  36,  54,  72,  90,  108,  126]
// TIMING-DAG: kiln-timing kernel=scale gpu_us={{.*}} device=0
// TIMING-DAG: kiln-timing kernel=scale gpu_us={{.*}} device=1
// EXAMPLE: [1000,  1001,  1002,
// EXAMPLE-SAME: 1098,  1099]
// EXAMPLE: [1,  11,  21,  31,  41,  51,  61,  71]

// RUN: not kiln-spirv-cpu-runner %S/../Inputs/two-devices.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: kiln-spirv-cpu: mgpuSetDefaultDevice(1): the program has 1 device (the default device; list more with --device=A,B or KILN_SPIRV_CPU_DEVICE), numbered 0..0
// RUN: not kiln-spirv-cpu-runner %S/../Inputs/two-devices.mlir --device=0,1 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: device 1 (entry '1'): spirv-cpu device index 1 is out of range
// RUN: not kiln-spirv-cpu-runner %S/../Inputs/foreign-memory.mlir --device=0,0 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: kiln-spirv-cpu: kernel 'scale' argument 0 is memory of device 0 (its gpu.alloc), but the launch runs on device 1; copy it to device 1 first (gpu.memcpy)
