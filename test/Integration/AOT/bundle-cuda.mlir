// The CUDA bundle: the same tests compiled with --target=cuda against the
// outputs recorded on Vulkan. Without a GPU this checks what run-all does
// with a CUDA bundle: it asks the executables for the chip, skips the tests
// whose values are for 8-wide subgroups (warps are 32 wide), ignores
// --validate, and says clearly when there is no driver. (The stand-in driver
// runs no kernels, so its results are not compared here.)
// UNSUPPORTED: sanitize
// (A sanitizer build's executables are several times larger than the bundle
// may be; the bundle is for machines without a compiler.)
// RUN: rm -rf %t && %python %kiln_src_root/test/bundle/make-bundle.py --build-dir %kiln_obj_root --out %t --target cuda --filecheck FileCheck | FileCheck %s --check-prefix=MAKE
// MAKE: kiln-bundle: {{[0-9]+}} tests, {{[0-9.]+}} MiB in
// RUN: cat %t/target | FileCheck %s --check-prefix=TARGET
// TARGET: cuda
// RUN: not env KILN_CUDA_DRIVER=%t.nowhere sh %t/run-all 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: run-all: no usable CUDA device:
// NODRIVER-NEXT: kiln-cuda: cannot open the CUDA driver
// RUN: not env KILN_CUDA_DRIVER=%fake_cuda_driver sh %t/run-all --validate 2>&1 | FileCheck %s --check-prefix=FAKE
// FAKE: run-all: --validate is for Vulkan bundles; ignored
// FAKE-DAG: SKIP shuffle_xor (its values are for subgroup size 8; the device's is 32)
// FAKE-DAG: SKIP subgroup_reduce_add (its values are for subgroup size 8; the device's is 32)
// FAKE: {{[0-9]+}} passed, {{[0-9]+}} failed, 2 skipped
