// kiln-bench --plot draws a grouped bar chart of every variant per kernel.
// REQUIRES: vulkan-runner, gnuplot
// RUN: rm -f %t.svg %t.png
// RUN: %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --filter='stream_triad_f32|fma' --plot=%t.svg > /dev/null
// RUN: FileCheck %s < %t.svg
// RUN: %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --filter=fma --plot=%t.png > /dev/null
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1], 'rb').read(8) != b'\x89PNG\r\n\x1a\n')" %t.png
// CHECK: <svg
// CHECK-DAG: stream_triad_f32 4133 (GB/s)
// CHECK-DAG: fma_chain 4096x8 (GFLOP/s)
// CHECK-DAG: kiln vulkan
// CHECK-DAG: glsl vulkan
// CHECK: kiln-bench: best throughput per kernel
