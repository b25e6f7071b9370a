// kiln-bench drives the runtimes through their C++ interface, whose calls
// return errors: a runtime error fails the benchmark family it happened in,
// with a row and a message naming it, and kiln-bench exits 1 instead of the
// runtime ending the process. A timeout (the device still runs the work)
// stops the run after that family.
// RUN: not env KILN_TIMEOUT=0.000001 %kiln_obj_root/bin/kiln-bench --backend=vulkan --smoke 2>&1 | FileCheck %s
// CHECK: kiln-bench: device_copy on vulkan failed: a copy did not complete within 1e-06 s (KILN_TIMEOUT) on device '{{.*}}'
// CHECK-NOT: stream_f32
// CHECK: FAILED device_copy/runtime/vulkan -: a copy did not complete within
