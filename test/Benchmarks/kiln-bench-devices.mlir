// kiln-bench with a device list on spirv-cpu (no GPU needed): --device=0,0
// is two devices of the host CPU, and the stream and SGEMM kernels also run
// on both at once (kiln_x2), one host thread per device, each on its own
// buffers and checked on its own. The console, the summary and the JSON and
// CSV reports carry the aggregate throughput, each device's, device 0's
// alone and the scaling efficiency; a device the list cannot have is an
// error naming it.
// RUN: %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --device=0,0 --filter='stream_(copy|dot)_f32|sgemm' --json=%t.json --csv=%t.csv > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %python %S/Inputs/check-bench-devices.py %t.json %t.csv spirv-cpu 2
//
// Several repetitions: the efficiency is the median of the repetitions'.
// RUN: %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --device=0,0 --reps=4 --max-seconds=1000 --filter='stream_triad_f64|sgemm_naive' --json=%t.4.json --csv=%t.4.csv > %t.4.out 2>&1
// RUN: %python %S/Inputs/check-bench-devices.py %t.4.json %t.4.csv spirv-cpu 2
// RUN: FileCheck %s --check-prefix=REPS < %t.4.out
//
// --list names the multi-device variants of the list's length.
// RUN: %kiln_obj_root/bin/kiln-bench --list --backend=spirv-cpu --device=0,0,0 | FileCheck %s --check-prefix=LIST
//
// One device: no multi-device rows, columns or table.
// RUN: %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --filter=stream_copy_f32 --json=%t.1.json > %t.1.out 2>&1
// RUN: FileCheck %s --check-prefix=ONE < %t.1.out
// RUN: FileCheck %s --check-prefix=ONEJSON < %t.1.json
//
// RUN: not %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --device=0,5 2>&1 | FileCheck %s --check-prefix=MISSING
//
// CHECK: Benchmark {{ *}}Time {{ *}}CPU {{ *}}Iterations aggregate_per_second alone_per_second bytes_per_second device0_per_second device1_per_second devices efficiency efficiency_best ratio_best ratio_paired
// CHECK-NEXT: ---
// CHECK-NEXT: stream_copy_f32/kiln_x2/spirv-cpu/4133/iterations:1/repeats:1/manual_time {{.*}} 2 {{[0-9.]+}} {{[0-9.]+}} 0 0
// CHECK: spirv-cpu: {{.+}} (CPU, spirv-cpu, {{[0-9]+}} worker threads, subgroup 8; Kiln's spirv-cpu runtime)
// CHECK-NEXT: 2 devices listed (--device=0,0): the kiln_x2 rows run Kiln's kernel on all of them at once
// CHECK: kernel variant backend size best median unit spread % peak reps
// CHECK-NEXT: stream_copy_f32 kiln spirv-cpu 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s
// CHECK-NEXT: stream_dot_f32 kiln spirv-cpu 4133
// CHECK-NEXT: stream_copy_f32 kiln_x2 spirv-cpu 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s
// CHECK-NEXT: stream_dot_f32 kiln_x2 spirv-cpu 4133
// CHECK-NEXT: sgemm_naive kiln spirv-cpu 64x64 {{[0-9.]+}} {{[0-9.]+}} GFLOP/s
// CHECK-NEXT: sgemm_tiled kiln
// CHECK-NEXT: sgemm_register kiln
// CHECK-NEXT: sgemm_naive kiln_x2 spirv-cpu 64x64
// CHECK-NEXT: sgemm_tiled kiln_x2
// CHECK-NEXT: sgemm_register kiln_x2 spirv-cpu 64x64
// CHECK: sgemm_register kiln_x2 spirv-cpu 128x128
// CHECK-NOT: FAILED
// CHECK: on several devices at once (median throughput): aggregate = all devices' work over the time of the slowest
// CHECK: kernel backend size devices aggregate device 0 device 1 alone unit efficiency paired efficiency best
// CHECK-NEXT: stream_copy_f32 spirv-cpu 4133 2 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} GB/s {{[0-9.]+}} {{[0-9.]+}}
// CHECK-NEXT: stream_dot_f32 spirv-cpu 4133 2
// CHECK-NEXT: sgemm_naive spirv-cpu 64x64 2 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} GFLOP/s {{[0-9.]+}} {{[0-9.]+}}
// CHECK: sgemm_register spirv-cpu 128x128 2
// CHECK-NOT: FAILED
//
// ERR: kiln-bench: spirv-cpu on {{.+}} (device 0 of 2)
// ERR-NOT: FAILED
// ERR-NOT: skipped
//
// REPS: stream_triad_f64/kiln_x2/spirv-cpu/4133/iterations:1/repeats:4/manual_time_median
// REPS: stream_triad_f64 kiln_x2 spirv-cpu 4133 {{.*}} 4
// REPS: sgemm_naive spirv-cpu 128x128 2
//
// LIST: stream_copy_f32/kiln/spirv-cpu
// LIST-NEXT: stream_copy_f32/kiln_x3/spirv-cpu
// LIST: sgemm_register/kiln_x3/spirv-cpu
// LIST-NOT: transpose/kiln_x3
// LIST-NOT: glsl
//
// ONE-NOT: kiln_x
// ONE-NOT: efficiency
// ONE-NOT: devices listed
// ONE: stream_copy_f32 kiln spirv-cpu 4133
// ONE-NOT: kiln_x
// ONE-NOT: several devices
// ONEJSON-NOT: "devices"
// ONEJSON-NOT: efficiency
// ONEJSON: "kiln_spirv_cpu_device"
// ONEJSON-NOT: "kiln_spirv_cpu_devices"
// ONEJSON-NOT: efficiency
//
// MISSING: kiln-bench: cannot run on spirv-cpu: device 1 (entry '5'): {{.*}}index 5 is out of range
