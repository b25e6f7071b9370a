#!/bin/sh
# Installs what is missing, builds Kiln and runs the whole test suite: the
# lit suite (passes, tools, the kernel corpus), the Vulkan integration tests
# again compiled ahead of time (build/test-aot) and on CUDA (build/test-cuda,
# unsupported without an NVIDIA GPU), and the GoogleTest units.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh

lit=/usr/lib/llvm-22/bin/lit
status=0
"$lit" -sv build/test build/test-aot build/test-cuda --xunit-xml-output build/lit-results.xml \
  || status=1
build/unittests/KilnUnitTests --gtest_brief=1 \
  --gtest_output=xml:build/gtest-results.xml || status=1
# The runtime's units run with the Khronos validation layer on: any message
# it reports fails the test.
KILN_VULKAN_VALIDATION=1 build/unittests/KilnVulkanRuntimeTests --gtest_brief=1 \
  --gtest_output=xml:build/gtest-vulkan-results.xml || status=1
# The CUDA runtime's units run everywhere, against a stand-in driver and
# against none.
build/unittests/KilnCUDARuntimeTests --gtest_brief=1 \
  --gtest_output=xml:build/gtest-cuda-results.xml || status=1

# One summary line over both suites.
python3 - <<'PY'
import xml.etree.ElementTree as ET
passed = failed = skipped = 0
for path in ("build/lit-results.xml", "build/gtest-results.xml",
             "build/gtest-vulkan-results.xml", "build/gtest-cuda-results.xml"):
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
