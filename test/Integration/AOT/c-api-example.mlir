// The C example (examples/c-api): kernels compiled to an object file and a
// header, linked into a C program that calls them with its own arrays,
// including a strided view.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %kiln_src_root/examples/c-api/kernels.mlir --emit=obj -o %t/kernels.o --emit-header=%t/kernels.h
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t %kiln_src_root/examples/c-api/main.c %t/kernels.o %kiln_lib_dir/libkiln_vulkan_runtime.a -lstdc++ -lm -o %t/c-api-example
// RUN: env KILN_VULKAN_VALIDATION=1 %t/c-api-example | FileCheck %s

// CHECK: saxpy: 1000 elements, ok
// CHECK-NEXT: {{^}}1 7 13 19{{$}}
// CHECK-NEXT: {{^}}3 9 15 21{{$}}
// CHECK-NEXT: {{^}}5 11 17 23{{$}}
// CHECK-NEXT: transpose: 4x3 view, ok
