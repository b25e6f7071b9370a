// kiln-bench --backend=spirv-cpu runs every kernel of benchmarks/kernels on
// the host CPU (compiled for spirv-cpu at build time; there is no reference
// there) and checks every result against the CPU's reference: no GPU
// needed. The device copy is the runtime's memcpy. --backend=all leaves
// spirv-cpu out.
// RUN: %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --json=%t.json > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %kiln_obj_root/bin/kiln-bench --list | FileCheck %s --check-prefix=ALL
//
// CHECK: spirv-cpu: {{.+}} (CPU, spirv-cpu, {{[0-9]+}} worker threads, subgroup 8; Kiln's spirv-cpu runtime)
// CHECK: kernel variant backend size best median unit spread % peak reps kiln/ref paired kiln/ref best
// CHECK-NEXT: device_copy memcpy spirv-cpu 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s 0.0% 100.0 1
// CHECK-NEXT: fma_chain kiln spirv-cpu 4096x8 {{[0-9.]+}} {{[0-9.]+}} GFLOP/s 0.0% 100.0 1
// CHECK-NEXT: stream_copy_f32 kiln spirv-cpu 4133
// CHECK-NEXT: stream_mul_f32 kiln
// CHECK-NEXT: stream_add_f32 kiln
// CHECK-NEXT: stream_triad_f32 kiln
// CHECK-NEXT: stream_dot_f32 kiln
// CHECK-NEXT: stream_copy_f64 kiln
// CHECK-NEXT: stream_mul_f64 kiln
// CHECK-NEXT: stream_add_f64 kiln
// CHECK-NEXT: stream_triad_f64 kiln
// CHECK-NEXT: stream_dot_f64 kiln
// CHECK-NEXT: reduce_workgroup kiln
// CHECK-NEXT: reduce_subgroup kiln
// CHECK-NEXT: transpose kiln spirv-cpu 96x160
// CHECK-NEXT: sgemm_naive kiln spirv-cpu 64x64
// CHECK-NEXT: sgemm_tiled kiln
// CHECK-NEXT: sgemm_register kiln spirv-cpu 64x64
// CHECK-NEXT: sgemm_naive kiln spirv-cpu 128x128
// CHECK-NEXT: sgemm_tiled kiln
// CHECK-NEXT: sgemm_register kiln spirv-cpu 128x128
// CHECK-NEXT: empty_roundtrip kiln spirv-cpu 10 {{.*}} klaunch/s
// CHECK-NEXT: empty_throughput kiln
// CHECK-NOT: FAILED
// CHECK-NOT: goals:
//
// ERR: kiln-bench: spirv-cpu on
// ERR-NOT: skipped
// ERR-NOT: FAILED
//
// ALL-NOT: spirv-cpu
