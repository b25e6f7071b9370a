// kiln-bench's --device goes to each runtime as its option and wins over
// the environment variable; a device that is not there is an error naming
// the devices there are.
// RUN: not %kiln_obj_root/bin/kiln-bench --backend=vulkan --device=no-such-device --smoke 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kiln-bench: cannot run on vulkan: no Vulkan device named 'no-such-device'; the devices are:
// RUN: env KILN_VULKAN_DEVICE=no-such-device %kiln_obj_root/bin/kiln-bench --backend=vulkan --device=0 --filter=stream_copy_f32 --size=64K --reps=1 --warmup=1 2>&1 | FileCheck %s
// CHECK: stream_copy_f32 65536 kiln/glsl on vulkan (paired)
