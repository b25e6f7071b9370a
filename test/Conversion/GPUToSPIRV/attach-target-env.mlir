// RUN: kiln-opt %s --split-input-file --kiln-attach-spirv-target-env | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-attach-spirv-target-env=profile=lavapipe | FileCheck %s --check-prefix=LAVAPIPE
// RUN: kiln-opt %s --split-input-file --kiln-attach-spirv-target-env=profile=vulkan-1.3 | FileCheck %s --check-prefix=VK13
// RUN: kiln-opt %s --split-input-file --kiln-attach-spirv-target-env=profile=desktop | FileCheck %s --check-prefix=DESKTOP
// RUN: kiln-opt %s --split-input-file --kiln-attach-spirv-target-env=profile=vulkan-1.1 | FileCheck %s --check-prefix=VK11

// The default profile is desktop, as for kiln-compile and the pipelines.
// CHECK-LABEL: gpu.module @plain
// CHECK-SAME: #spirv.vce<v1.6, [Shader, Float16, Float64, Int8, Int16, Int64, Int64Atomics
// CHECK-SAME: max_compute_workgroup_size = [1024, 1024, 64]
// VK11-LABEL: gpu.module @plain
// VK11-SAME: spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan
// VK11-SAME: #spirv.resource_limits<max_compute_workgroup_size = [128, 128, 64]>
// DESKTOP-LABEL: gpu.module @plain
// DESKTOP-SAME: #spirv.vce<v1.6, [Shader, Float16, Float64, Int8, Int16, Int64, Int64Atomics
// DESKTOP-SAME: max_compute_workgroup_size = [1024, 1024, 64]
// DESKTOP-NOT: subgroup_size = 8
// LAVAPIPE-LABEL: gpu.module @plain
// LAVAPIPE-SAME: #spirv.vce<v1.6, [Shader, Float16, Float64, Int8, Int16, Int64
// LAVAPIPE-SAME: max_compute_shared_memory_size = 32768, max_compute_workgroup_invocations = 1024
// VK13-LABEL: gpu.module @plain
// VK13-SAME: #spirv.vce<v1.6, [Shader, GroupNonUniform, DotProduct
module attributes {gpu.container_module} {
  gpu.module @plain {
  }
}

// -----

// An env on the GPU module is kept, whatever the profile.
// CHECK-LABEL: gpu.module @own
// CHECK-SAME: #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>
// LAVAPIPE-LABEL: gpu.module @own
// LAVAPIPE-SAME: #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>
module attributes {gpu.container_module} {
  gpu.module @own attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  }
}

// -----

// An env on the enclosing module is kept and copied onto the GPU module.
// CHECK-LABEL: gpu.module @inherited
// CHECK-SAME: #spirv.vce<v1.5, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>
// VK13-LABEL: gpu.module @inherited
// VK13-SAME: #spirv.vce<v1.5, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @inherited {
  }
}
