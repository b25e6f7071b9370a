// A wrong result is a failure, never a number: against the stand-in CUDA
// driver (which runs no kernels) every output stays as it was uploaded, so
// each check fails before any timing, the row says FAILED and kiln-bench
// exits 1. The host flow (module loads, launches, cuBLAS lookup) runs all
// the same.
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %kiln_obj_root/bin/kiln-bench --backend=cuda --smoke --filter='stream_(copy|dot)_f32|transpose' > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// CHECK: cuda: Fake GPU 0 (sm_{{[0-9]+}}, {{.*}}; CUDA driver {{[0-9.]+}})
// CHECK: stream_copy_f32 kiln cuda 4133 FAILED
// CHECK: FAILED stream_copy_f32/kiln/cuda/4133: wrong result: element 0 is {{.*}}, expected {{.*}} (4133 of 4133 checked elements differ)
// CHECK: FAILED stream_dot_f32/kiln/cuda/4133: wrong result: sum is {{.*}}, expected {{.*}}
// CHECK: FAILED transpose/kiln/cuda/96x160: wrong result: element 0 is
// CHECK-NOT: stream_mul
// ERR: kiln-bench: cuda on Fake GPU 0
// ERR: kiln-bench: stream_copy_f32/kiln/cuda/4133 FAILED: wrong result
