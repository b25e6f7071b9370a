// kiln-launch-overhead runs Kiln's runtime and a hand-written Vulkan loop on
// the default device (lavapipe here, so the numbers mean little; on a GPU
// see benchmarks/README.md), then launches that do not wait for each other.
// REQUIRES: vulkan-runner
// RUN: %kiln_obj_root/bin/kiln-launch-overhead --launches=20 --rounds=2 --batches=4,8 2>&1 | FileCheck %s
// CHECK: back to back,    4 launches then one wait: {{ *[0-9.]+}} us per launch to enqueue, {{ *[0-9.]+}} us in all
// CHECK: back to back,    8 launches then one wait:
// CHECK: device: {{.+}}
// CHECK: launches per round: 20, rounds: 2 (medians below)
// CHECK: hand-written Vulkan loop: {{ *[0-9.]+}} us per launch
// CHECK: kiln runtime (mgpu*): {{ *[0-9.]+}} us per launch
// CHECK: kiln / hand-written: {{ *[0-9.]+}}x
// CHECK: pipelines created by the runtime: 1

// RUN: not %kiln_obj_root/bin/kiln-launch-overhead --batches=0 2>&1 | FileCheck %s --check-prefix=BATCHES
// BATCHES: kiln-launch-overhead: --batches takes a list of launch counts from 1 to 1000000, got '0'
