// An executable (or the runner) whose SPIR-V needs a capability the device
// lacks stops before the driver sees the module, naming the capability, the
// Vulkan feature, the kernel and the device. KILN_VULKAN_HIDE_FEATURES makes
// lavapipe look like a device without the named features.
// RUN: kiln-compile %S/../Vulkan/elementwise_f64.mlir --emit=exe -o %t.f64
// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderFloat64 %t.f64 2>&1 | FileCheck %s --check-prefix=F64
// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderFloat64 kiln-vulkan-runner --target-env=desktop %S/../Vulkan/elementwise_f64.mlir 2>&1 | FileCheck %s --check-prefix=F64
// The runner's default --target-env=device sees the device without the
// hidden feature, so the compiler refuses the kernel, located.
// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderFloat64 kiln-vulkan-runner %S/../Vulkan/elementwise_f64.mlir 2>&1 | FileCheck %s --check-prefix=F64-DEVICE
// F64-DEVICE: elementwise_f64.mlir:{{[0-9]+}}:3: error: 'gpu.func' cannot be lowered to SPIR-V for this target env (SPIR-V v1.{{[0-9]}}): it needs capability Float64
// F64: kiln-vulkan: cannot load GPU module with kernel 'main_kernel': it needs capability Float64 (Vulkan feature shaderFloat64), which device '{{.*}}' does not offer; compile it for this device (kiln-compile --target-env=device) or a target env without it

// RUN: kiln-compile %S/../Vulkan/subgroup_reduce_ops.mlir --emit=exe -o %t.sg
// RUN: not env KILN_VULKAN_HIDE_FEATURES=subgroup:arithmetic %t.sg 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// SUBGROUP: it needs capability GroupNonUniformArithmetic (subgroup operations 'arithmetic' in compute shaders), which device '{{.*}}' does not offer

// The device still runs what does not need the hidden feature.
// RUN: env KILN_VULKAN_HIDE_FEATURES=shaderFloat64,shaderInt16 %t.sg | FileCheck %S/../Vulkan/subgroup_reduce_ops.mlir

// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderFloat65 %t.f64 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kiln-vulkan: KILN_VULKAN_HIDE_FEATURES: unknown feature 'shaderFloat65'
