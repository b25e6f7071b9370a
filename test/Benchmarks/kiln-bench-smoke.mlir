// kiln-bench --smoke runs every kernel of benchmarks/kernels and its GLSL
// reference on the Vulkan device (lavapipe in CI) at tiny sizes, with the
// validation layer on, and checks every result against the CPU: a wrong
// result would print FAILED and exit 1. Google Benchmark's console report
// comes first, then kiln-bench's summary and goals; its JSON and CSV
// reports hold every run.
// REQUIRES: vulkan-runner
// RUN: env KILN_VULKAN_VALIDATION=1 %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --json=%t.json --csv=%t.csv > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %python %S/Inputs/check-bench-json.py %t.json %t.csv
//
// Several repetitions: the statistics, and the ratios made of the
// repetitions in pairs.
// RUN: %kiln_obj_root/bin/kiln-bench --smoke --backend=vulkan --reps=5 --max-seconds=1000 --filter='fma|stream_add_f32|empty_round' --json=%t.5.json --csv=%t.5.csv > %t.5.out 2>&1
// RUN: %python %S/Inputs/check-bench-json.py %t.5.json %t.5.csv 5
// RUN: FileCheck %s --check-prefix=REPS < %t.5.out
//
// CHECK: Benchmark {{ *}}Time {{ *}}CPU {{ *}}Iterations bytes_per_second ratio_best ratio_paired
// CHECK: device_copy/vkCmdCopyBuffer/vulkan/4133/iterations:1/repeats:1/manual_time {{.*}} us {{.*}} 1 {{.*}} 0 0
// CHECK: fma_chain/{{kiln|glsl}}/vulkan/4096x8/iterations:1/repeats:1/manual_time
// CHECK: vulkan: {{.+}} ({{.*}}Vulkan {{[0-9.]+}}, subgroup {{[0-9]+}}; {{.+}})
// CHECK: up to 1 repetitions after 1 warm-up, Kiln's and the reference's interleaved in random order
// CHECK: kiln/ref: Kiln's throughput over the reference's (above 1: Kiln is faster)
// CHECK: kernel variant backend size best median unit spread % peak reps kiln/ref paired kiln/ref best
// CHECK-NEXT: device_copy vkCmdCopyBuffer vulkan 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s 0.0% 100.0 1
// CHECK-NEXT: fma_chain kiln vulkan 4096x8 {{.*}} GFLOP/s {{.*}} 1 {{[0-9.]+}} vs glsl {{[0-9.]+}}
// CHECK-NEXT: fma_chain glsl vulkan 4096x8
// CHECK-NEXT: stream_copy_f32 kiln vulkan 4133 {{.*}} GB/s {{.*}} vs glsl
// CHECK-NEXT: stream_copy_f32 glsl vulkan 4133 {{.*}} GB/s
// CHECK-NEXT: stream_copy_f32 kiln_address vulkan 4133 {{.*}} vs kiln
// CHECK-NEXT: stream_mul_f32 kiln
// CHECK-NEXT: stream_mul_f32 glsl
// CHECK-NEXT: stream_mul_f32 kiln_address vulkan 4133 {{.*}} vs kiln
// CHECK-NEXT: stream_add_f32 kiln
// CHECK-NEXT: stream_add_f32 glsl
// CHECK-NEXT: stream_add_f32 kiln_address vulkan 4133 {{.*}} vs kiln
// CHECK-NEXT: stream_triad_f32 kiln
// CHECK-NEXT: stream_triad_f32 glsl
// CHECK-NEXT: stream_triad_f32 kiln_address vulkan 4133 {{.*}} vs kiln
// CHECK-NEXT: stream_dot_f32 kiln
// CHECK-NEXT: stream_dot_f32 glsl
// CHECK-NEXT: stream_dot_f32 kiln_address vulkan 4133 {{.*}} vs kiln
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
// CHECK-NEXT: empty_roundtrip kiln vulkan 10 {{.*}} klaunch/s
// CHECK-NEXT: empty_roundtrip glsl
// CHECK-NEXT: empty_throughput kiln
// CHECK-NEXT: empty_throughput glsl
// CHECK-NOT: FAILED
// CHECK: goals:
// CHECK: fma_chain 4096x8 kiln/glsl on vulkan (paired): {{[0-9.]+}} (goal >= 0.95) {{met|MISSED}}
// CHECK: stream_copy_f32 4133 kiln/glsl on vulkan (paired): {{[0-9.]+}} (goal >= 0.95) {{met|MISSED}}
// CHECK: empty_throughput 10 kiln/glsl on vulkan (paired)
// CHECK: stream_triad_f32 kiln on vulkan / device copy: {{[0-9.]+}}% (goal >= 90%)
//
// ERR: kiln-bench: vulkan on
// ERR-NOT: skipped
// ERR-NOT: kiln-vulkan
//
// REPS: fma_chain/{{kiln|glsl}}/vulkan/4096x8/iterations:1/repeats:5/manual_time_mean
// REPS: manual_time_median
// REPS: manual_time_stddev
// REPS: manual_time_cv
// REPS: manual_time_fastest
// REPS: fma_chain kiln vulkan 4096x8 {{.*}} 5 {{[0-9.]+}} vs glsl {{[0-9.]+}}
