// kiln-cuda-launch-overhead runs both loops and reports both numbers (here
// against the stand-in driver, so the numbers mean nothing; on a GPU see
// benchmarks/README.md), and fails clearly without a driver.
// RUN: env KILN_CUDA_DRIVER=%fake_cuda_driver %kiln_obj_root/bin/kiln-cuda-launch-overhead --launches=50 --rounds=2 2>&1 | FileCheck %s
// CHECK: round 1: hand-written {{[0-9.]+}} us, kiln {{[0-9.]+}} us
// CHECK: round 2:
// CHECK: device: Fake GPU 0
// CHECK: hand-written driver-API loop: {{ *[0-9.]+}} us per launch
// CHECK: kiln runtime (mgpu*): {{ *[0-9.]+}} us per launch
// CHECK: kiln / hand-written: {{ *[0-9.]+}}x
// CHECK: runtime launches: 300,
// RUN: not env KILN_CUDA_DRIVER=%t.nowhere %kiln_obj_root/bin/kiln-cuda-launch-overhead 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: kiln-cuda: cannot open the CUDA driver
