// kiln-bench --smoke runs every kernel of benchmarks/kernels and its GLSL
// reference on the Vulkan device (lavapipe in CI) at tiny sizes, with the
// validation layer on, and checks every result against the CPU: a wrong
// result would print FAILED and exit 1.
// REQUIRES: vulkan-runner
// RUN: env KILN_VULKAN_VALIDATION=1 %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --json=%t.json --csv=%t.csv > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %python %S/Inputs/check-bench-json.py %t.json %t.csv
//
// CHECK: vulkan: {{.+}} ({{.*}}Vulkan {{[0-9.]+}}, subgroup {{[0-9]+}}; {{.+}})
// CHECK: best of 1 repetitions after 1 warm-up
// CHECK: kernel variant backend size best median unit spread % peak ratio
// CHECK-NEXT: device_copy vkCmdCopyBuffer vulkan 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s 0.0% 100.0
// CHECK-NEXT: stream_copy_f32 kiln vulkan 4133 {{.*}} GB/s {{.*}} vs glsl
// CHECK-NEXT: stream_copy_f32 glsl vulkan 4133 {{.*}} GB/s
// CHECK-NEXT: stream_mul_f32 kiln
// CHECK-NEXT: stream_mul_f32 glsl
// CHECK-NEXT: stream_add_f32 kiln
// CHECK-NEXT: stream_add_f32 glsl
// CHECK-NEXT: stream_triad_f32 kiln
// CHECK-NEXT: stream_triad_f32 glsl
// CHECK-NEXT: stream_dot_f32 kiln
// CHECK-NEXT: stream_dot_f32 glsl
// CHECK-NEXT: stream_copy_f64 kiln
// CHECK-NEXT: stream_copy_f64 glsl
// CHECK-NEXT: stream_mul_f64 kiln
// CHECK-NEXT: stream_mul_f64 glsl
// CHECK-NEXT: stream_add_f64 kiln
// CHECK-NEXT: stream_add_f64 glsl
// CHECK-NEXT: stream_triad_f64 kiln
// CHECK-NEXT: stream_triad_f64 glsl
// CHECK-NEXT: stream_dot_f64 kiln
// CHECK-NEXT: stream_dot_f64 glsl
// CHECK-NEXT: reduce_workgroup kiln
// CHECK-NEXT: reduce_workgroup glsl
// CHECK-NEXT: reduce_subgroup kiln
// CHECK-NEXT: reduce_subgroup glsl
// CHECK-NEXT: transpose kiln vulkan 96x160
// CHECK-NEXT: transpose glsl vulkan 96x160
// CHECK-NEXT: sgemm_naive kiln vulkan 64x64 {{.*}} GFLOP/s
// CHECK-NEXT: sgemm_naive glsl
// CHECK-NEXT: sgemm_tiled kiln
// CHECK-NEXT: sgemm_tiled glsl
// CHECK-NEXT: sgemm_register kiln
// CHECK-NEXT: sgemm_register glsl
// CHECK-NEXT: sgemm_naive kiln vulkan 128x128
// CHECK-NEXT: sgemm_naive glsl
// CHECK-NEXT: sgemm_tiled kiln
// CHECK-NEXT: sgemm_tiled glsl
// CHECK-NEXT: sgemm_register kiln
// CHECK-NEXT: sgemm_register glsl
// CHECK-NEXT: fma_chain kiln vulkan 4096x8 {{.*}} GFLOP/s
// CHECK-NEXT: fma_chain glsl
// CHECK-NEXT: empty_roundtrip kiln vulkan 10 {{.*}} klaunch/s
// CHECK-NEXT: empty_roundtrip glsl
// CHECK-NEXT: empty_throughput kiln
// CHECK-NEXT: empty_throughput glsl
// CHECK-NOT: FAILED
// CHECK: goals (best times):
// CHECK: stream_copy_f32 kiln/glsl on vulkan: {{[0-9.]+}} (goal >= 0.95) {{met|MISSED}}
// CHECK: stream_triad_f32 kiln on vulkan / device copy: {{[0-9.]+}}% (goal >= 90%)
//
// ERR: kiln-bench: vulkan on
// ERR-NOT: skipped
// ERR-NOT: kiln-vulkan
