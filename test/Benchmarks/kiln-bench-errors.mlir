// kiln-bench's errors: a backend asked for by name without its driver, bad
// options (exit 2), and a filter that matches nothing.
// RUN: not env KILN_CUDA_DRIVER=%t.nowhere %kiln_obj_root/bin/kiln-bench --backend=cuda 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: kiln-bench: cannot run on cuda: cannot open the CUDA driver {{.*}}nowhere
// RUN: not %kiln_obj_root/bin/kiln-bench --backend=metal 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: kiln-bench: unknown --backend='metal' (vulkan, cuda, spirv-cpu or all)
// RUN: not %kiln_obj_root/bin/kiln-bench --gemm-sizes=1024,100 2>&1 | FileCheck %s --check-prefix=GEMM
// GEMM: kiln-bench: SGEMM size '100' must be a multiple of 64 up to 32768
// RUN: not %kiln_obj_root/bin/kiln-bench --size=0 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: kiln-bench: --size='0' must be a count of elements from 1 to 2^31-1
// RUN: not %kiln_obj_root/bin/kiln-bench --filter='(' 2>&1 | FileCheck %s --check-prefix=REGEX
// RUN: not %kiln_obj_root/bin/kiln-bench --filter='-(' 2>&1 | FileCheck %s --check-prefix=REGEX2
// REGEX2: kiln-bench: --filter='-(' is not a regular expression
// REGEX: kiln-bench: --filter='(' is not a regular expression
// RUN: not %kiln_obj_root/bin/kiln-bench --plot=out.pdf 2>&1 | FileCheck %s --check-prefix=PLOT
// PLOT: kiln-bench: --plot='out.pdf' must name a .svg or .png file
// RUN: not %kiln_obj_root/bin/kiln-bench --frobnicate 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kiln-bench: unknown option '--frobnicate'
// UNKNOWN: usage: kiln-bench [options]
// Google Benchmark's own options go to it, and it refuses those it does not
// know; kiln-bench writes the output files itself.
// RUN: not %kiln_obj_root/bin/kiln-bench --backend=vulkan --benchmark_frobnicate=1 2>&1 | FileCheck %s --check-prefix=GBUNKNOWN
// GBUNKNOWN: error: unrecognized command-line flag: --benchmark_frobnicate=1
// RUN: not %kiln_obj_root/bin/kiln-bench --benchmark_out_format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: kiln-bench: --benchmark_out_format='xml' must be json or csv
// RUN: not %kiln_obj_root/bin/kiln-bench --backend=vulkan --smoke --json=%t.nodir/out.json 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: kiln-bench: cannot write '{{.*}}nodir/out.json'
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %kiln_obj_root/bin/kiln-bench --backend=cuda --smoke --filter=nothing-matches 2>&1 | FileCheck %s --check-prefix=NOMATCH
// NOMATCH: kiln-bench: no benchmark matches --filter='nothing-matches'
// --count-instructions counts a CPU's instructions: not on CUDA, not on
// several devices at once, not as ranks of an MPI job.
// RUN: not %kiln_obj_root/bin/kiln-bench --count-instructions --backend=cuda 2>&1 | FileCheck %s --check-prefix=COUNTCUDA
// COUNTCUDA: kiln-bench: --count-instructions counts the instructions of a CPU driver's shader code; use --backend=vulkan (on a CPU driver such as lavapipe) or --backend=spirv-cpu
// RUN: not %kiln_obj_root/bin/kiln-bench --count-instructions --device=0,1 2>&1 | FileCheck %s --check-prefix=COUNTDEVICES
// COUNTDEVICES: kiln-bench: --count-instructions counts one device's launches; name one --device
// RUN: not %kiln_obj_root/bin/kiln-bench --count-instructions --mpi 2>&1 | FileCheck %s --check-prefix=COUNTMPI
// COUNTMPI: kiln-bench: --count-instructions runs one process under valgrind, not the ranks of an MPI job
// The exit status of a usage error is 2.
// RUN: %kiln_obj_root/bin/kiln-bench --reps=0 2>/dev/null; test $? -eq 2
// Under mpirun: an implementation kiln-bench does not speak, and allreduce
// sizes that are not whole floats.
// RUN: not %kiln_obj_root/bin/kiln-bench --mpi=lam 2>&1 | FileCheck %s --check-prefix=MPIIMPL
// MPIIMPL: kiln-bench: --mpi='lam' must be openmpi or mpich
// RUN: not %kiln_obj_root/bin/kiln-bench --mpi --allreduce-sizes=8,6 2>&1 | FileCheck %s --check-prefix=ALLREDUCE
// ALLREDUCE: kiln-bench: allreduce size '6' must be a number of bytes, a multiple of 4 below 8G (suffixes K, M, G)
// RUN: not %kiln_obj_root/bin/kiln-bench --mpi --allreduce-sizes=8G 2>&1 | FileCheck %s --check-prefix=ALLREDUCEBIG
// ALLREDUCEBIG: kiln-bench: allreduce size '8G' must be
