// Programs of this suite again with every memref argument bound by buffer
// device address (--buffer-device-address=always): static and dynamic
// shapes, strided views, subviews, atomics, vectors, 8/16/64-bit data,
// gpu.alloc buffers and host buffers print what they print with descriptors.
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/dynamic_2d.mlir --validate | FileCheck %S/../Vulkan/dynamic_2d.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/dynamic_rank3_rank4.mlir --validate | FileCheck %S/../Vulkan/dynamic_rank3_rank4.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/strided_subview_arg.mlir --validate | FileCheck %S/../Vulkan/strided_subview_arg.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/subview_in_kernel.mlir --validate | FileCheck %S/../Vulkan/subview_in_kernel.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/atomics_generic_and_kinds.mlir --validate | FileCheck %S/../Vulkan/atomics_generic_and_kinds.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/atomic_i64_add.mlir --validate | FileCheck %S/../Vulkan/atomic_i64_add.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/vector_widths.mlir --validate | FileCheck %S/../Vulkan/vector_widths.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/elementwise_i8.mlir --validate | FileCheck %S/../Vulkan/elementwise_i8.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/elementwise_f16.mlir --validate | FileCheck %S/../Vulkan/elementwise_f16.mlir
// RUN: kiln-vulkan-runner --buffer-device-address=always %S/../Vulkan/gpu_alloc_dynamic_chain.mlir --validate | FileCheck %S/../Vulkan/gpu_alloc_dynamic_chain.mlir
// RUN: kiln-compile --buffer-device-address=always %S/../Vulkan/dynamic_2d.mlir --emit=exe -o %t.exe && %t.exe | FileCheck %S/../Vulkan/dynamic_2d.mlir
