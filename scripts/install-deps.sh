#!/bin/sh
# Installs the Debian packages Kiln builds, tests and runs with, where missing.
set -eu

PACKAGES="cmake ninja-build g++ python3 llvm-22-dev libmlir-22-dev mlir-22-tools \
llvm-22-tools libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers \
vulkan-tools spirv-tools spirv-headers glslc libgtest-dev libbenchmark-dev gnuplot-nox \
openmpi-bin mpich pybind11-dev python3-dev python3-numpy python3-pytest valgrind"
# --sanitize: also clang with its sanitizer and libFuzzer runtimes, for the
# ASan/UBSan build and the fuzz targets (scripts/test.sh --sanitize).
if [ "${1:-}" = --sanitize ]; then
  PACKAGES="$PACKAGES clang-22 libclang-rt-22-dev"
fi

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" != 0 ]; then
  SUDO=sudo
fi
echo "kiln: installing$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
