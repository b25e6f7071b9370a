#!/bin/sh
# Installs what is missing, builds Kiln, compiles the example kernels to
# SPIR-V, validates them and prints their disassembly.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
out=build/examples
mkdir -p "$out"
for f in examples/*.mlir; do
  name=$(basename "$f" .mlir)
  echo "== $f -> $out/$name/"
  mkdir -p "$out/$name"
  build/bin/kiln-compile "$f" --target=vulkan --emit=spirv -o "$out/$name"
  for spv in "$out/$name"/*.spv; do
    spirv-val --target-env vulkan1.1 "$spv"
    echo "-- $spv (spirv-val --target-env vulkan1.1: valid)"
    spirv-dis "$spv"
  done
done
