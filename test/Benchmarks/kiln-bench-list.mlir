// kiln-bench --list names every benchmark of each backend without running
// anything; --filter applies.
// RUN: %kiln_obj_root/bin/kiln-bench --list | FileCheck %s
// CHECK: device_copy/vkCmdCopyBuffer/vulkan
// CHECK: stream_copy_f32/kiln/vulkan
// CHECK: stream_copy_f32/glsl/vulkan
// CHECK: stream_copy_f32/kiln_address/vulkan
// CHECK: sgemm_register/kiln/vulkan
// CHECK: empty_throughput/glsl/vulkan
// CHECK: device_copy/cuMemcpyDtoD/cuda
// CHECK: stream_triad_f64/cuda/cuda
// CHECK: sgemm/cublas/cuda
// RUN: %kiln_obj_root/bin/kiln-bench --list --backend=cuda --filter=sgemm | FileCheck %s --check-prefix=FILTER
// FILTER-NOT: vulkan
// FILTER-NOT: kiln_address
// FILTER: sgemm_naive/kiln/cuda
// FILTER: sgemm/cublas/cuda
// FILTER-NOT: stream
// Google Benchmark's names for the list and the filter work too, and a
// leading '-' excludes.
// RUN: %kiln_obj_root/bin/kiln-bench --benchmark_list_tests --benchmark_filter=-vulkan | FileCheck %s --check-prefix=EXCLUDE
// EXCLUDE-NOT: vulkan
// EXCLUDE: device_copy/cuMemcpyDtoD/cuda
// EXCLUDE: sgemm/cublas/cuda
