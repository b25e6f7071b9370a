// kiln-bench --plot draws one panel per unit (each variant's best
// throughput per kernel and size) and one of Kiln's paired ratios to the
// reference against the goal line.
// REQUIRES: vulkan-runner, gnuplot
// RUN: rm -f %t.svg %t.png
// RUN: %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --filter='stream_triad_f32|fma' --plot=%t.svg > /dev/null 2>&1
// RUN: FileCheck %s < %t.svg
// RUN: %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --filter=fma --plot=%t.png > /dev/null 2>&1
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1], 'rb').read(8) != b'\x89PNG\r\n\x1a\n')" %t.png
// CHECK: <svg
// CHECK-DAG: >best throughput (GFLOP/s)<
// CHECK-DAG: >best throughput (GB/s)<
// CHECK-DAG: >Kiln / reference throughput (median of paired repetitions; above 1: Kiln is faster)<
// CHECK-DAG: >stream_triad_f32 4133<
// CHECK-DAG: >fma_chain 4096x8<
// CHECK-DAG: >kiln vulkan<
// CHECK-DAG: >glsl vulkan<
// CHECK-DAG: >vulkan vs glsl<
// CHECK-DAG: >goal 0.95<
