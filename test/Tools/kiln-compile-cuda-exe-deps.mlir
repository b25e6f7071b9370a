// A --target=cuda executable needs no CUDA library at link time: libcuda.so.1
// is opened when it runs.
// UNSUPPORTED: sanitize
// (Sanitized executables also need the sanitizer runtimes' libraries.)
// RUN: kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=exe -o %t.exe
// RUN: %python %S/Inputs/check-elf-deps.py %t.exe | FileCheck %s
// CHECK-DAG: needed: libstdc++.so.6
// CHECK-DAG: needed: libc.so.6
// CHECK-NOT: libcuda
// CHECK-NOT: error:
// RUN: %t.exe --help | FileCheck %s --check-prefix=HELP
// HELP: Runs the program's entry point on a CUDA device.
