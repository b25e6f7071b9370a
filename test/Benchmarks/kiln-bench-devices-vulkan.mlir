// kiln-bench with a device list on Vulkan: --device=0,0 opens the device
// twice, as two independent devices, and the stream and SGEMM kernels also
// run on both at once (kiln_x2), one host thread per device, under the
// validation layer; every device's result is checked. A device the list
// cannot have is an error naming the devices there are.
// REQUIRES: vulkan-runner
// RUN: env KILN_VULKAN_VALIDATION=1 %kiln_obj_root/bin/kiln-bench --backend=vulkan --smoke --device=0,0 --reps=3 --max-seconds=1000 --filter='stream_(triad|dot)_f32|sgemm_register' --json=%t.json --csv=%t.csv > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %python %S/Inputs/check-bench-devices.py %t.json %t.csv vulkan 2
// RUN: %python %S/Inputs/check-bench-json.py %t.json %t.csv 3
// RUN: not %kiln_obj_root/bin/kiln-bench --backend=vulkan --smoke --device=0,5 2>&1 | FileCheck %s --check-prefix=MISSING
//
// CHECK: stream_triad_f32/kiln_x2/vulkan/4133/iterations:1/repeats:3/manual_time_mean {{.*}} 2 {{[0-9.]+}} {{[0-9.]+}} 0 0
// CHECK: vulkan: {{.+}}
// CHECK-NEXT: 2 devices listed (--device=0,0): the kiln_x2 rows run Kiln's kernel on all of them at once
// CHECK: stream_triad_f32 kiln vulkan 4133 {{.*}} vs glsl
// CHECK-NEXT: stream_triad_f32 glsl vulkan 4133
// CHECK-NEXT: stream_triad_f32 kiln_address vulkan 4133
// CHECK-NEXT: stream_dot_f32 kiln vulkan 4133
// CHECK-NEXT: stream_dot_f32 glsl vulkan 4133
// CHECK-NEXT: stream_dot_f32 kiln_address vulkan 4133
// CHECK-NEXT: stream_triad_f32 kiln_x2 vulkan 4133 {{[0-9.]+}} {{[0-9.]+}} GB/s {{.*}} 3
// CHECK-NEXT: stream_dot_f32 kiln_x2 vulkan 4133
// CHECK-NEXT: sgemm_register kiln vulkan 64x64
// CHECK-NEXT: sgemm_register glsl vulkan 64x64
// CHECK-NEXT: sgemm_register kiln_x2 vulkan 64x64 {{[0-9.]+}} {{[0-9.]+}} GFLOP/s
// CHECK-NOT: FAILED
// CHECK: kernel backend size devices aggregate device 0 device 1 alone unit efficiency paired efficiency best
// CHECK-NEXT: stream_triad_f32 vulkan 4133 2 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} GB/s {{[0-9.]+}} {{[0-9.]+}}
// CHECK-NEXT: stream_dot_f32 vulkan 4133 2
// CHECK-NEXT: sgemm_register vulkan 64x64 2
// CHECK-NEXT: sgemm_register vulkan 128x128 2
// CHECK-NOT: FAILED
//
// ERR: kiln-bench: vulkan on {{.+}} (device 0 of 2)
// ERR-NOT: FAILED
// ERR-NOT: Validation
//
// MISSING: kiln-bench: cannot run on vulkan: device 1 (entry '5'): {{.*}}index 5 is out of range; the devices are:
