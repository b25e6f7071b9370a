// kiln-bench with a device list on CUDA, against the stand-in driver (two
// devices; it runs no kernels): the stream and SGEMM kernels also run on
// both devices at once (kiln_x2), each device with its own buffers, stream
// and host thread, and each device's result is checked on its own, so both
// devices' wrong results are named and nothing is timed. An index past the
// driver's devices is an error naming it.
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %kiln_obj_root/bin/kiln-bench --backend=cuda --smoke --device=0,1 --filter='stream_copy_f32|sgemm_naive' > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver %kiln_obj_root/bin/kiln-bench --backend=cuda --smoke --device=0,5 2>&1 | FileCheck %s --check-prefix=MISSING
//
// CHECK: cuda: Fake GPU 0 (sm_{{[0-9]+}}, {{.*}})
// CHECK-NEXT: 2 devices listed (--device=0,1): the kiln_x2 rows run Kiln's kernel on all of them at once
// CHECK: stream_copy_f32 kiln_x2 cuda 4133 FAILED
// CHECK: sgemm_naive kiln_x2 cuda 64x64 FAILED
// CHECK-NOT: several devices at once
// CHECK: FAILED stream_copy_f32/kiln_x2/cuda/4133: device 0: wrong result: element 0 is {{.*}}; device 1: wrong result: element 0 is
// CHECK: FAILED sgemm_naive/kiln_x2/cuda/64x64: device 0: wrong result: {{.*}}; device 1: wrong result:
// CHECK-NOT: several devices at once
//
// ERR: kiln-bench: cuda on Fake GPU 0 (device 0 of 2)
// ERR: kiln-bench: stream_copy_f32/kiln_x2/cuda/4133 FAILED: device 0: wrong result
//
// MISSING: kiln-bench: cannot run on cuda: device 1 (entry '5'): {{.*}}index 5
