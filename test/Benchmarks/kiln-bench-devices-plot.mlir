// kiln-bench --plot with a device list: besides the panels of one device,
// a panel per unit of the kernels on several devices at once (the
// aggregate, each device and device 0 alone) and one of the scaling
// efficiency with the line at 1. On spirv-cpu, so no GPU is needed.
// REQUIRES: gnuplot
// RUN: rm -f %t.svg
// RUN: %kiln_obj_root/bin/kiln-bench --smoke --backend=spirv-cpu --device=0,0 --filter='stream_triad_f32|sgemm_naive' --plot=%t.svg > /dev/null 2>&1
// RUN: FileCheck %s < %t.svg
// CHECK: <svg
// CHECK-DAG: >best throughput (GB/s)<
// CHECK-DAG: >best throughput (GFLOP/s)<
// CHECK-DAG: >on several devices at once, median throughput (GB/s); alone: device 0 by itself<
// CHECK-DAG: >on several devices at once, median throughput (GFLOP/s); alone: device 0 by itself<
// CHECK-DAG: >scaling efficiency: aggregate / (devices x device 0 alone), median<
// CHECK-DAG: >stream_triad_f32 4133<
// CHECK-DAG: >stream_triad_f32 4133 x2<
// CHECK-DAG: >sgemm_naive 128x128 x2<
// CHECK-DAG: >kiln spirv-cpu<
// CHECK-DAG: >aggregate spirv-cpu<
// CHECK-DAG: >device 0 spirv-cpu<
// CHECK-DAG: >device 1 spirv-cpu<
// CHECK-DAG: >alone spirv-cpu<
// CHECK-DAG: >every device as fast as alone<
