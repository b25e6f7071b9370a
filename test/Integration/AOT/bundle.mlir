// The portable test bundle: every Vulkan integration test compiled ahead of
// time into one folder under 30 MiB, run by run-all (POSIX sh) against the
// expected outputs recorded with the JIT runner. A wrong value, a wrong exit
// status and a missing device are reported as such.
// UNSUPPORTED: sanitize
// (A sanitizer build's executables are several times larger than the bundle
// may be; the bundle is for machines without a compiler.)
// RUN: rm -rf %t && %python %kiln_src_root/test/bundle/make-bundle.py --build-dir %kiln_obj_root --out %t/kiln-bundle --filecheck FileCheck | FileCheck %s --check-prefix=MAKE
// RUN: sh %t/kiln-bundle/run-all --validate | FileCheck %s
// RUN: sh %t/kiln-bundle/run-all --filter=saxpy -v | FileCheck %s --check-prefix=FILTER
// RUN: sed -i "s/1099/1098/" %t/kiln-bundle/expected/example_saxpy.out
// RUN: sed -i "s/^entry_result_i32 216 /entry_result_i32 215 /" %t/kiln-bundle/tests.list
// RUN: not sh %t/kiln-bundle/run-all | FileCheck %s --check-prefix=WRONG
// RUN: sed -i "s/^shuffle_xor 0 subgroup_size=8 /shuffle_xor 0 subgroup_size=64 /" %t/kiln-bundle/tests.list
// RUN: sh %t/kiln-bundle/run-all --filter=shuffle_xor | FileCheck %s --check-prefix=SKIP
// RUN: not sh %t/kiln-bundle/run-all --device=no-such-device 2>&1 | FileCheck %s --check-prefix=DEVICE

// MAKE: kiln-bundle: {{[0-9]+}} tests, {{([0-9]|1[0-9]|2[0-9])\.[0-9]}} MiB in
// CHECK-NOT: FAIL
// CHECK: {{^[0-9]+}} passed, 0 failed, 0 skipped
// FILTER: PASS example_saxpy
// FILTER-NEXT: 1 passed, 0 failed, 0 skipped
// WRONG-DAG: FAIL entry_result_i32: exit status 216, expected 215
// WRONG-DAG: FAIL example_saxpy: line 2: expected 1098, got 1099
// WRONG: {{[0-9]+}} passed, 2 failed, 0 skipped
// SKIP: SKIP shuffle_xor (its values are for subgroup size 64; the device's is {{[0-9]+}})
// SKIP-NEXT: 0 passed, 0 failed, 1 skipped
// DEVICE: run-all: no usable Vulkan device:
// DEVICE-NEXT: kiln-vulkan: no Vulkan device named 'no-such-device'
