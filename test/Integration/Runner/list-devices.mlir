// RUN: kiln-vulkan-runner --list-devices | FileCheck %s
// RUN: kiln-vulkan-runner --print-target-env | FileCheck %s --check-prefix=ENV
// RUN: kiln-vulkan-runner --print-target-env --device=0 | FileCheck %s --check-prefix=ENV
// --list-devices describes each device; --print-target-env prints the chosen
// device's #spirv.target_env, which parses as one.

// CHECK: 0: {{.+}}
// CHECK-NEXT: type: {{(discrete GPU|integrated GPU|virtual GPU|CPU|other)}}, vendor 0x{{[0-9a-f]+}}
// CHECK-NEXT: api: 1.{{[0-9]+}}.{{[0-9]+}}, driver: {{.+}}
// CHECK: memory heap 0: {{[0-9.]+}} MiB
// CHECK: subgroup size: {{[0-9]+}}
// CHECK: max workgroup size: [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], invocations: {{[0-9]+}}
// CHECK: shared memory: {{[0-9]+}} bytes, push constants: {{[0-9]+}} bytes

// ENV: #spirv.target_env<#spirv.vce<v1.{{[356]}}, [Shader{{.*}}], [SPV_KHR_storage_buffer_storage_class{{.*}}]>, api=Vulkan, {{.*}}#spirv.resource_limits<max_compute_shared_memory_size = {{[0-9]+}}, max_compute_workgroup_invocations = {{[0-9]+}}, max_compute_workgroup_size = [{{.*}}], subgroup_size = {{[0-9]+}}
