// `cmake --install` gives a prefix that a new project adopts with
// find_package(Kiln) (examples/downstream, docs/install.md): a C program
// calling a kernel compiled at build time with kiln_add_kernel_library, a
// C++ program on the Vulkan runtime's interface, and the project's own opt
// tool with Kiln's passes; Kiln's passes and dialect load into Debian's
// mlir-opt from the prefix's plugin; the installed tools run from there.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cmake --install %kiln_obj_root --prefix %t/prefix > %t/install.log
// RUN: %cmake -S %kiln_src_root/examples/downstream -B %t/build %downstream_cmake_flags -DCMAKE_PREFIX_PATH=%t/prefix > %t/configure.log
// RUN: %cmake --build %t/build > %t/build.log
// RUN: %t/build/scale | FileCheck %s --check-prefix=SCALE
// RUN: %t/build/device-info | FileCheck %s --check-prefix=INFO
// RUN: %t/build/downstream-opt %kiln_src_root/examples/saxpy.mlir --downstream-to-spirv | FileCheck %s --check-prefix=OPT
// RUN: %mlir_opt --load-dialect-plugin=%t/prefix/lib/libKilnPlugin.so --load-pass-plugin=%t/prefix/lib/libKilnPlugin.so %kiln_src_root/examples/saxpy.mlir --pass-pipeline="builtin.module(kiln-gpu-to-spirv)" | FileCheck %s --check-prefix=OPT
// RUN: %t/prefix/bin/kiln-compile %kiln_src_root/examples/saxpy.mlir --emit=exe -o %t/saxpy
// RUN: %t/saxpy | FileCheck %s --check-prefix=SAXPY
// RUN: %t/prefix/bin/kiln-vulkan-runner %kiln_src_root/examples/saxpy.mlir | FileCheck %s --check-prefix=SAXPY
// RUN: %t/prefix/bin/kiln-compile --version | FileCheck %s --check-prefix=VERSION
// The Runtime component alone needs no LLVM or MLIR.
// RUN: %cmake -S %kiln_src_root/examples/downstream -B %t/runtime-only %downstream_cmake_flags -DCMAKE_PREFIX_PATH=%t/prefix -DDOWNSTREAM_RUNTIME_ONLY=ON -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON > %t/runtime-only.log
// RUN: %cmake --build %t/runtime-only > %t/runtime-only-build.log
// RUN: %t/runtime-only/device-info | FileCheck %s --check-prefix=INFO
// The package's version and components: this version and minor, nothing
// else until 1.0; a component that does not exist is refused.
// RUN: %cmake -S %S/Inputs/find-kiln -B %t/find-ok %downstream_cmake_flags -DCMAKE_PREFIX_PATH=%t/prefix "-DKILN_WANTED=0.1" -DKILN_COMPONENTS=Runtime | FileCheck %s --check-prefix=FOUND
// RUN: not %cmake -S %S/Inputs/find-kiln -B %t/find-new %downstream_cmake_flags -DCMAKE_PREFIX_PATH=%t/prefix "-DKILN_WANTED=0.2" -DKILN_COMPONENTS=Runtime 2>&1 | FileCheck %s --check-prefix=TOO-NEW
// RUN: not %cmake -S %S/Inputs/find-kiln -B %t/find-bad %downstream_cmake_flags -DCMAKE_PREFIX_PATH=%t/prefix -DKILN_COMPONENTS=Nope 2>&1 | FileCheck %s --check-prefix=BAD-COMPONENT
// RUN: find %t/prefix -type f | sed 's|%t/prefix/||' | sort | FileCheck %s --check-prefix=FILES

// SCALE: scale: 1000 elements, ok
// INFO: target env: #spirv.target_env<
// OPT: gpu.binary @
// SAXPY: [1000,  1001,  1002,
// VERSION: Kiln {{[0-9.]+}}
// FOUND: found Kiln 0.1.
// TOO-NEW: Could not find a configuration file for package "Kiln" that is compatible
// TOO-NEW-NEXT: with requested version "0.2".
// BAD-COMPONENT: Kiln has no component 'Nope'; it has Runtime and Compiler

// FILES-DAG: bin/kiln-compile
// FILES-DAG: bin/kiln-opt
// FILES-DAG: bin/kiln-translate
// FILES-DAG: bin/kiln-vulkan-runner
// FILES-DAG: bin/kiln-cuda-runner
// FILES-DAG: bin/kiln-spirv-cpu-runner
// FILES-DAG: bin/kiln-bench
// FILES-DAG: include/kiln/Config.h
// FILES-DAG: include/kiln/Dialect/Kiln/KilnAttrs.h.inc
// FILES-DAG: include/kiln/Runtime/VulkanRuntime.h
// FILES-DAG: include/kiln/Transforms/Passes.td
// FILES-DAG: lib/cmake/Kiln/KilnConfig.cmake
// FILES-DAG: lib/cmake/Kiln/KilnConfigVersion.cmake
// FILES-DAG: lib/cmake/Kiln/KilnCompilerTargets.cmake
// FILES-DAG: lib/cmake/Kiln/KilnRuntimeTargets.cmake
// FILES-DAG: lib/cmake/Kiln/KilnKernels.cmake
// FILES-DAG: lib/libKilnCompiler.a
// FILES-DAG: lib/libKilnPlugin.so
// FILES-DAG: lib/libkiln_vulkan_runtime.a
// FILES-DAG: lib/libkiln_vulkan_runtime.so.{{[0-9]+\.[0-9]+\.[0-9]+}}
// FILES-DAG: lib/libkiln_cuda_runtime.so.{{[0-9]+\.[0-9]+\.[0-9]+}}
// FILES-DAG: lib/libkiln_spirv_cpu_runtime.so.{{[0-9]+\.[0-9]+\.[0-9]+}}
// FILES-DAG: lib/libkiln_runner_utils.a
// FILES-DAG: lib/libkiln_aot_main.a
