// A runner's or an executable's flags reach the runtime as its options
// (rt::Runtime::configure), not through the environment, and win over the
// environment variable they stand for; without the flag the variable still
// counts.
// RUN: not env KILN_TIMEOUT=soon kiln-vulkan-runner %S/../Vulkan/elementwise_f32_add.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env KILN_TIMEOUT=soon KILN_VULKAN_DEVICE=no-such-device kiln-vulkan-runner %S/../Vulkan/elementwise_f32_add.mlir --timeout=30 --device=0 | FileCheck %s
// RUN: env KILN_TIMEOUT=soon kiln-spirv-cpu-runner %S/../Vulkan/elementwise_f32_add.mlir --timeout=30 | FileCheck %s
// RUN: kiln-compile %S/../Vulkan/elementwise_f32_add.mlir --emit=exe -o %t.exe
// RUN: env KILN_TIMEOUT=soon KILN_VULKAN_DEVICE=no-such-device %t.exe --timeout=30 --device=0 | FileCheck %s
// RUN: not env KILN_TIMEOUT=soon %t.exe 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: Unranked Memref base@ = {{.*}} sizes = [50]
// BAD: KILN_TIMEOUT='soon' is not a positive number of seconds
// RUN: env KILN_CPU_THREADS=0 kiln-spirv-cpu-runner --cpu-threads=3 --list-devices | FileCheck %s --check-prefix=THREADS
// THREADS: worker threads: 3 (as the program asked)
