// kiln-cuda-launch-overhead runs both loops and reports both numbers (here
// against the stand-in driver, so the numbers mean nothing; on a GPU see
// benchmarks/README.md), and fails clearly without a driver.
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %kiln_obj_root/bin/kiln-cuda-launch-overhead --launches=50 --rounds=2 --batches=4,8 2>&1 | FileCheck %s
// CHECK: round 1: hand-written {{[0-9.]+}} us, kiln {{[0-9.]+}} us
// CHECK: round 2:
// Launches that do not wait for each other: 4 and 8 at a time, then one
// wait (6 batches of each, the first untimed).
// CHECK: back to back,    4 launches then one wait: {{ *[0-9.]+}} us per launch to enqueue, {{ *[0-9.]+}} us in all
// CHECK: back to back,    8 launches then one wait:
// CHECK: device: Fake GPU 0
// CHECK: hand-written driver-API loop: {{ *[0-9.]+}} us per launch
// CHECK: kiln runtime (mgpu*): {{ *[0-9.]+}} us per launch
// CHECK: kiln / hand-written: {{ *[0-9.]+}}x
// CHECK: runtime launches: 372,
// RUN: not env KILN_CUDA_DRIVER=%t.nowhere %kiln_obj_root/bin/kiln-cuda-launch-overhead 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: kiln-cuda: cannot open the CUDA driver

// RUN: not %kiln_obj_root/bin/kiln-cuda-launch-overhead --batches=4,x 2>&1 | FileCheck %s --check-prefix=BATCHES
// BATCHES: kiln-cuda-launch-overhead: --batches takes a list of launch counts from 1 to 1000000, got '4,x'
