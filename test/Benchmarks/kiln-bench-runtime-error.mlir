// kiln-bench drives the runtimes through their C++ interface, whose calls
// return errors: a runtime error fails the benchmark family it happened in,
// with a row and a message naming it, and kiln-bench exits 1 instead of the
// runtime ending the process. A timeout (the device still runs the work)
// stops the run after that family. The stream arrays are large enough (32
// MiB) that the first copy cannot complete before the wait for it starts,
// as a tiny one can on a loaded machine.
// RUN: not env KILN_TIMEOUT=0.000001 %kiln_obj_root/bin/kiln-bench --backend=vulkan --smoke --size=8M > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s < %t.out
// ERR: kiln-bench: device_copy on vulkan failed: a copy did not complete within 1e-06 s (KILN_TIMEOUT) on device '{{.*}}'
// ERR-NOT: fma_chain
// CHECK-NOT: fma_chain
// CHECK: device_copy setup vulkan - FAILED
// CHECK-NOT: fma_chain
// CHECK: FAILED device_copy/setup/vulkan/-: a copy did not complete within
