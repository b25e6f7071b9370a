#!/bin/sh
# Installs what is missing, builds Kiln and runs the whole test suite: the
# lit suite (passes, tools, the kernel corpus), the Vulkan integration tests
# again compiled ahead of time (build/test-aot), on CUDA (build/test-cuda,
# unsupported without an NVIDIA GPU) and on the CPU through the spirv-cpu
# target (build/test-spirv-cpu), and the GoogleTest units.
#
#   scripts/test.sh              the build in build/ (GCC)
#   scripts/test.sh --sanitize   the same suite on a clang build with
#                                AddressSanitizer and UBSan in build-asan,
#                                then a short run of each fuzz target
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = --sanitize ]; then
  scripts/install-deps.sh --sanitize
  if [ ! -f build-asan/build.ninja ]; then
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DKILN_FUZZ=ON -DKILN_WERROR="${KILN_WERROR:-OFF}"
  elif [ -n "${KILN_WERROR:-}" ]; then
    # KILN_WERROR in the environment applies to a configured build too.
    cmake -S . -B build-asan -DKILN_WERROR="$KILN_WERROR" >/dev/null
  fi
  # Set before the build, which runs the sanitized kiln-compile on the
  # benchmarks' kernels. Leaks are not checked: the driver and LLVM keep
  # objects until exit. A report aborts, so that a test expecting a
  # failure still fails on it.
  # User poisoning is off: LLVM's BumpPtrAllocator poisons the unused part
  # of a slab when its inline code is compiled with ASan (Kiln's attribute
  # storage, allocated in the MLIR context), and the uninstrumented
  # libMLIR.so then writes into the same slab without unpoisoning it, a
  # report about no error.
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:allow_user_poisoning=0"
  export UBSAN_OPTIONS="print_stacktrace=1:abort_on_error=1"
  # MPICH's UCX transport (libucs) hooks malloc and mmap, which ASan's
  # interceptors already own; with the hooks on, an MPICH process crashes in
  # MPI_Init.
  export UCX_MEM_EVENTS=no
  ninja -C build-asan -j "${KILN_JOBS:-2}"
  build=build-asan
else
  scripts/install-deps.sh
  scripts/build.sh
  build=build
fi

lit=/usr/lib/llvm-22/bin/lit
status=0
rm -f $build/*-results.xml
"$lit" -sv $build/test $build/test-aot $build/test-cuda $build/test-spirv-cpu \
  --xunit-xml-output $build/lit-results.xml || status=1
$build/unittests/KilnUnitTests --gtest_brief=1 \
  --gtest_output=xml:$build/gtest-results.xml || status=1
# The runtime's units run with the Khronos validation layer on: any message
# it reports fails the test.
KILN_VULKAN_VALIDATION=1 $build/unittests/KilnVulkanRuntimeTests --gtest_brief=1 \
  --gtest_output=xml:$build/gtest-vulkan-results.xml || status=1
# The CUDA runtime's units run everywhere, against a stand-in driver and
# against none.
$build/unittests/KilnCUDARuntimeTests --gtest_brief=1 \
  --gtest_output=xml:$build/gtest-cuda-results.xml || status=1
# The spirv-cpu runtime's units run on the host, with hand-written kernels.
$build/unittests/KilnSPIRVCPURuntimeTests --gtest_brief=1 \
  --gtest_output=xml:$build/gtest-spirv-cpu-results.xml || status=1
# The MPI runtime's units run as singleton MPI processes (no mpirun).
$build/unittests/KilnMPIRuntimeTests --gtest_brief=1 \
  --gtest_output=xml:$build/gtest-mpi-results.xml || status=1
# The Python package's tests: pytest through the ctest test
# python/CMakeLists.txt registers, with the interpreter CMake found and the
# build's package on PYTHONPATH. A build without the package (no pybind11 or
# Python headers) has no such test, which fails here, as does a pytest run
# that collects no test (pytest's exit status 5).
ctest --test-dir $build -R '^kiln-python-tests$' --no-tests=error \
  --output-on-failure || status=1

# One summary line over both suites.
python3 - "$build" <<'PY'
import sys
import xml.etree.ElementTree as ET
build = sys.argv[1]
passed = failed = skipped = 0
for name in ("lit-results.xml", "gtest-results.xml",
             "gtest-vulkan-results.xml", "gtest-cuda-results.xml",
             "gtest-spirv-cpu-results.xml", "gtest-mpi-results.xml",
             "pytest-results.xml"):
    path = build + "/" + name
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        print(f"{path}: missing or unreadable (the test binary crashed?)")
        failed += 1
        continue
    cases = list(root.iter("testcase"))
    if not cases and name == "pytest-results.xml":
        print(f"{path}: pytest collected no test")
        failed += 1
    for case in cases:
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
print(f"{build}: {passed} passed, {failed} failed, {skipped} skipped")
PY
if [ "$build" = build-asan ]; then
  scripts/fuzz.sh build-asan || status=1
fi
exit $status
