// With no arguments a tool prints its usage (and how to read standard input)
// instead of waiting on standard input; --version names Kiln's version; an
// unknown option is an error with a non-zero exit.
// RUN: not kiln-compile 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not kiln-vulkan-runner 2>&1 < /dev/null | FileCheck %s --check-prefix=RUNNER
// RUN: not kiln-cuda-runner 2>&1 < /dev/null | FileCheck %s --check-prefix=CUDA
// RUN: not kiln-spirv-cpu-runner 2>&1 < /dev/null | FileCheck %s --check-prefix=CPU
// RUN: kiln-compile --version | FileCheck %s --check-prefix=VERSION
// RUN: kiln-vulkan-runner --version | FileCheck %s --check-prefix=VERSION
// RUN: not kiln-compile %s --no-such-option 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// COMPILE: kiln-compile: compiles programs written with MLIR's gpu dialect
// COMPILE: USAGE: kiln-compile [options] <input.mlir>
// COMPILE: EXAMPLES:
// COMPILE: kiln-compile prog.mlir --emit=exe -o prog
// COMPILE: Standard input is '-'; 'kiln-compile --help' lists the options.
// RUNNER: USAGE: kiln-vulkan-runner [options] <input.mlir>
// RUNNER: 'kiln-vulkan-runner --help' lists the options.
// CUDA: USAGE: kiln-cuda-runner [options] <input.mlir>
// CPU: USAGE: kiln-spirv-cpu-runner [options] <input.mlir>
// VERSION: Kiln {{[0-9]+\.[0-9]+\.[0-9]+}}
// UNKNOWN: kiln-compile: Unknown command line argument '--no-such-option'
// kiln-opt and kiln-translate are mlir-opt and mlir-translate; their
// --version adds Kiln's.
// RUN: kiln-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: kiln-translate --version | FileCheck %s --check-prefix=VERSION
