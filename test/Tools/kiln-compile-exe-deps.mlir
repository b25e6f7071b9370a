// An executable needs only the C/C++ runtime (and, opened at run time, the
// Vulkan loader): no LLVM, no MLIR, no RPATH, no glibc newer than 2.36.
// UNSUPPORTED: sanitize
// (Sanitized executables also need the sanitizer runtimes' libraries.)
// RUN: kiln-compile %kiln_src_root/examples/saxpy.mlir --emit=exe -o %t.exe
// RUN: %python %S/Inputs/check-elf-deps.py %t.exe | FileCheck %s
// RUN: kiln-compile %kiln_src_root/examples/saxpy.mlir --emit=exe --static-cxx-runtime --strip -o %t.static
// RUN: %python %S/Inputs/check-elf-deps.py %t.static --no-libstdcxx | FileCheck %s --check-prefix=STATIC
// RUN: llvm-readelf --symbols %t.static | FileCheck %s --check-prefix=STRIPPED
// async.execute host code uses Kiln's own async runtime, not libLLVM's.
// RUN: kiln-compile %kiln_src_root/test/Integration/Vulkan/async_execute.mlir --emit=exe --static-cxx-runtime -o %t.async
// RUN: %python %S/Inputs/check-elf-deps.py %t.async --no-libstdcxx | FileCheck %s --check-prefix=STATIC

// CHECK-DAG: needed: libstdc++.so.6
// CHECK-DAG: needed: libc.so.6
// CHECK-NOT: error:
// STATIC: needed: libc.so.6
// STATIC-NOT: libstdc++
// STATIC-NOT: error:
// STRIPPED-NOT: mgpuLaunchKernel
