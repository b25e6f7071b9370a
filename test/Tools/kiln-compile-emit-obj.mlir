// --emit=obj: a relocatable object with the C entry points exported, the
// functions they wrap kept internal, the runtime's mgpu* entry points
// undefined (libkiln_vulkan_runtime.a defines them) and the GPU modules'
// loaders in .init_array.
// RUN: kiln-compile %kiln_src_root/examples/c-api/kernels.mlir --emit=obj -o %t.o
// RUN: llvm-readobj --file-headers %t.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-nm %t.o | FileCheck %s
// RUN: llvm-readobj --sections %t.o | FileCheck %s --check-prefix=SECTIONS
// Without -o the object is named after the input, in the working directory.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir && kiln-compile %kiln_src_root/examples/c-api/kernels.mlir --emit=obj
// RUN: llvm-nm %t.dir/kernels.o | FileCheck %s
// From standard input it is a.o.
// RUN: cd %t.dir && kiln-compile --emit=obj < %kiln_src_root/examples/c-api/kernels.mlir
// RUN: llvm-nm %t.dir/a.o | FileCheck %s

// ELF: Format: elf64-
// ELF: Type: Relocatable
// CHECK-DAG: T _mlir_ciface_saxpy
// CHECK-DAG: T _mlir_ciface_transpose
// CHECK-DAG: U mgpuLaunchKernel
// CHECK-DAG: U mgpuModuleLoad
// CHECK-DAG: U mgpuModuleGetFunction
// CHECK-DAG: r saxpy_kernel_binary
// CHECK-DAG: r transpose_kernel_binary
// CHECK-NOT: {{ [TD] (saxpy|transpose)$}}
// SECTIONS: Name: .init_array
// SECTIONS-NOT: Name: .ctors
