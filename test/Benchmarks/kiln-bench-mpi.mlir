// kiln-bench under mpirun, two ranks on spirv-cpu (no GPU needed): only the
// MPI benchmarks run. Kiln's f32 stream kernels run on every rank at once
// (kiln_mpi2), reported as the rows of several devices are (aggregate,
// each rank, rank 0 alone, efficiency); the f32 sum allreduce of host
// buffers and of device buffers (which the runtime stages) is checked on
// every rank and reported as the slowest rank's time, algbw, busbw and the
// device's ratio over the host's. Rank 0 alone prints and writes the
// reports.
// REQUIRES: mpi
// RUN: %mpirun -n 2 %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --filter='stream_(copy|triad)_f32|allreduce' --json=%t.json --csv=%t.csv > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %python %S/Inputs/check-bench-mpi.py %t.json %t.csv spirv-cpu 2
//
// Several repetitions, and sizes of one's own.
// RUN: %mpirun -n 2 %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --smoke --reps=3 --max-seconds=1000 --filter='stream_add|allreduce' --allreduce-sizes=4,1K --json=%t.3.json --csv=%t.3.csv > %t.3.out 2>&1
// RUN: %python %S/Inputs/check-bench-mpi.py %t.3.json %t.3.csv spirv-cpu 2
// RUN: FileCheck %s --check-prefix=REPS < %t.3.out
//
// A wrong result on every rank (the stand-in CUDA driver runs no kernels)
// fails the case on all of them, with each rank's message.
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %mpirun -n 2 %kiln_obj_root/bin/kiln-bench --backend=cuda --smoke --filter='stream_copy|allreduce_sum_f32/.*/8$' > %t.cuda.out 2> %t.cuda.err
// RUN: FileCheck %s --check-prefix=WRONG < %t.cuda.out
//
// CHECK: Benchmark {{ *}}Time {{ *}}CPU {{ *}}Iterations aggregate_per_second alone_per_second bytes_per_second device0_per_second device1_per_second devices efficiency efficiency_best ranks ratio_best ratio_paired
// CHECK: stream_copy_f32/kiln_mpi2/spirv-cpu/4133/iterations:1/repeats:1/manual_time {{.*}} 2 {{[0-9.]+}} {{[0-9.]+}} 2 0 0
// CHECK: Benchmark {{ *}}Time {{ *}}CPU {{ *}}Iterations busbw_per_second bytes_per_second ranks ratio_best ratio_paired
// CHECK: allreduce_sum_f32/kiln_mpi2_host/spirv-cpu/8/iterations:1/repeats:1/manual_time {{.*}} 2 0 0
// CHECK-NEXT: allreduce_sum_f32/kiln_mpi2_device/spirv-cpu/8/iterations:1/repeats:1/manual_time {{.*}} 2 {{[0-9.]+}} {{[0-9.]+}}
// CHECK: spirv-cpu: {{.+}} (CPU, spirv-cpu, {{[0-9]+}} worker threads, subgroup 8; Kiln's spirv-cpu runtime)
// CHECK-NEXT: 2 ranks (Open MPI), each on its own device (this is rank 0's): the kiln_mpi2 rows
// CHECK: kernel variant backend size best median unit spread % peak reps
// CHECK-NEXT: stream_copy_f32 kiln_mpi2 spirv-cpu 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s
// CHECK-NEXT: stream_triad_f32 kiln_mpi2 spirv-cpu 4133
// CHECK-NEXT: allreduce_sum_f32 kiln_mpi2_host spirv-cpu 8 {{[0-9.]+}} {{[0-9.]+}} GB/s
// CHECK-NEXT: allreduce_sum_f32 kiln_mpi2_device spirv-cpu 8 {{.*}} vs kiln_mpi2_host
// CHECK-NEXT: allreduce_sum_f32 kiln_mpi2_host spirv-cpu 16532
// CHECK-NEXT: allreduce_sum_f32 kiln_mpi2_device spirv-cpu 16532 {{.*}} vs kiln_mpi2_host
// CHECK-NOT: FAILED
// CHECK: on every rank at once (median throughput)
// CHECK: kernel backend size ranks aggregate rank 0 rank 1 alone unit efficiency paired efficiency best
// CHECK-NEXT: stream_copy_f32 spirv-cpu 4133 2 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} GB/s {{[0-9.]+}} {{[0-9.]+}}
// CHECK-NEXT: stream_triad_f32 spirv-cpu 4133 2
// CHECK: allreduce_sum_f32 (f32 sum, every rank's message of `bytes`)
// CHECK: backend bytes floats host us host algbw host busbw device us device algbw device busbw device/host paired device/host best
// CHECK-NEXT: spirv-cpu 8 2 {{([0-9.]+ +){7}[0-9.]+$}}
// CHECK-NEXT: spirv-cpu 16532 4133 {{([0-9.]+ +){7}[0-9.]+$}}
// CHECK-NOT: {{.}}
//
// Rank 0 tells, once; the other rank is silent.
// ERR: kiln-bench: spirv-cpu on {{.+}} (rank 0 of 2)
// ERR-NOT: kiln-bench:
// ERR: Running {{.*}}kiln-bench
// ERR-NOT: kiln-bench:
// ERR-NOT: Running
//
// REPS: stream_add_f32/kiln_mpi2/spirv-cpu/4133/iterations:1/repeats:3/manual_time_median
// REPS: allreduce_sum_f32/kiln_mpi2_device/spirv-cpu/4/iterations:1/repeats:3/manual_time_median
// REPS: allreduce_sum_f32 kiln_mpi2_device spirv-cpu 1024 {{.*}} 3 {{.*}} vs kiln_mpi2_host
// REPS: spirv-cpu 1024 256
//
// WRONG: stream_copy_f32 kiln_mpi2 cuda 4133 FAILED
// WRONG-NEXT: allreduce_sum_f32 kiln_mpi2_host cuda 8 {{[0-9.]+}}
// WRONG-NEXT: allreduce_sum_f32 kiln_mpi2_device cuda 8 {{[0-9.]+}}
// WRONG: FAILED stream_copy_f32/kiln_mpi2/cuda/4133: rank 0: wrong result: element 0 is {{.*}}; rank 1: wrong result: element 0 is
