// --help: the tool named in its overview, its own options first in its own
// categories, then MLIR's, and none of LLVM's (those are in --help-hidden).
// RUN: kiln-compile --help | FileCheck %s --check-prefix=COMPILE
// RUN: kiln-compile --help | FileCheck %s --check-prefix=NO-LLVM
// RUN: kiln-vulkan-runner --help | FileCheck %s --check-prefixes=RUNNER,VULKAN
// RUN: kiln-vulkan-runner --help | FileCheck %s --check-prefix=NO-LLVM
// RUN: kiln-cuda-runner -h | FileCheck %s --check-prefixes=RUNNER,CUDA
// RUN: kiln-spirv-cpu-runner -help | FileCheck %s --check-prefixes=RUNNER,CPU
// RUN: kiln-compile --help-hidden | FileCheck %s --check-prefix=HIDDEN

// COMPILE: OVERVIEW: kiln-compile: compiles programs written with MLIR's gpu dialect
// COMPILE: USAGE: kiln-compile [options] <input.mlir>
// COMPILE: EXAMPLES:
// COMPILE: OPTIONS:
// COMPILE-EMPTY:
// COMPILE-NEXT: Compilation:
// COMPILE: --emit=<string>
// COMPILE: --target=<string>
// COMPILE: Vulkan and spirv-cpu targets:
// COMPILE: --target-env=<string>
// COMPILE: CUDA target:
// COMPILE: --chip=<string>
// COMPILE: Host programs:
// COMPILE: --emit-header=<file.h>
// COMPILE: MLIR options:
// COMPILE: --mlir-print-ir-after-all
// COMPILE: --mlir-timing
// COMPILE: Generic options:
// COMPILE: --help
// COMPILE: --version

// NO-LLVM-NOT: amdgpu
// NO-LLVM-NOT: --arm-
// NO-LLVM-NOT: --x86-
// NO-LLVM-NOT: MLIR CPU execution driver

// RUNNER: OVERVIEW: kiln-{{vulkan|cuda|spirv-cpu}}-runner: runs programs written with MLIR's gpu dialect
// RUNNER: OPTIONS:
// RUNNER-EMPTY:
// RUNNER-NEXT: Running:
// RUNNER: -e <name>
// RUNNER: --entry-point-result=<type>
// RUNNER: --shared-libs=<lib.so,...>
// VULKAN: Vulkan:
// VULKAN: --validate
// CUDA: CUDA:
// CUDA: --chip=<string>
// CPU: spirv-cpu:
// CPU: --checked
// RUNNER: MLIR options:
// RUNNER: --mlir-print-ir-after-all

// HIDDEN: --x86-
