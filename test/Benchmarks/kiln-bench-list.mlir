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
// Under mpirun (its environment, or --mpi) only the MPI benchmarks run:
// Kiln's f32 stream kernels on every rank at once and the allreduce of host
// and device buffers, named for the job's ranks; rank 0 lists them.
// RUN: env OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=0 %kiln_obj_root/bin/kiln-bench --list --backend=spirv-cpu | FileCheck %s --check-prefix=MPI
// RUN: env PMI_SIZE=4 %kiln_obj_root/bin/kiln-bench --list --backend=spirv-cpu | FileCheck %s --check-prefix=MPI
// MPI-NOT: /kiln/
// MPI: stream_copy_f32/kiln_mpi4/spirv-cpu
// MPI-NEXT: stream_mul_f32/kiln_mpi4/spirv-cpu
// MPI-NEXT: stream_add_f32/kiln_mpi4/spirv-cpu
// MPI-NEXT: stream_triad_f32/kiln_mpi4/spirv-cpu
// MPI-NEXT: stream_dot_f32/kiln_mpi4/spirv-cpu
// MPI-NEXT: allreduce_sum_f32/kiln_mpi4_host/spirv-cpu
// MPI-NEXT: allreduce_sum_f32/kiln_mpi4_device/spirv-cpu
// MPI-NOT: {{.}}
// RUN: env OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=3 %kiln_obj_root/bin/kiln-bench --list --backend=spirv-cpu | count 0
// RUN: %kiln_obj_root/bin/kiln-bench --list --mpi=mpich --backend=vulkan --filter=allreduce | FileCheck %s --check-prefix=MPIONE
// MPIONE: allreduce_sum_f32/kiln_mpi1_host/vulkan
// MPIONE-NEXT: allreduce_sum_f32/kiln_mpi1_device/vulkan
// MPIONE-NOT: {{.}}
