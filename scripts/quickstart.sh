#!/bin/sh
# Installs what is missing, builds Kiln, and runs the example kernel on the
# default Vulkan device (a GPU when there is one, else Mesa's lavapipe) with
# the Khronos validation layer on.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== Vulkan devices (build/bin/kiln-vulkan-runner --list-devices)"
build/bin/kiln-vulkan-runner --list-devices
echo "== build/bin/kiln-vulkan-runner examples/saxpy.mlir --validate"
build/bin/kiln-vulkan-runner examples/saxpy.mlir --validate
echo "== the same kernel as SPIR-V: build/examples/saxpy.spv"
mkdir -p build/examples
build/bin/kiln-compile examples/saxpy.mlir --target=vulkan --emit=spirv \
  -o build/examples/saxpy.spv
spirv-val --target-env vulkan1.3 build/examples/saxpy.spv
echo "(spirv-val --target-env vulkan1.3, the desktop profile kiln-compile targets by default: valid; spirv-dis prints it)"
