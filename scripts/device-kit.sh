#!/bin/sh
# Assembles Kiln's device kit: everything that runs on a GPU machine that has
# only a driver (no LLVM, no MLIR, no compiler), in one folder of a few tens
# of MiB. Copy the folder there and run its `run` script.
#
#   scripts/device-kit.sh [BUILD_DIR] [OUT_DIR]     (default build, BUILD/kiln-device-kit)
#
# The kit holds the Vulkan and CUDA test bundles (build/kiln-bundle and
# build/kiln-bundle-cuda: the integration tests compiled ahead of time), the
# runtimes' GoogleTest units, kiln-bench with the runtimes it opens, and the
# launch-overhead benchmarks. `OUT/run [RESULTS_DIR]` runs them all and writes
# each one's log (and kiln-bench's JSON) into RESULTS_DIR (default ./results).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-$build/kiln-device-kit}

ninja -C "$build" -j "${KILN_JOBS:-2}" kiln-bench kiln-launch-overhead \
  kiln-cuda-launch-overhead KilnUnitTests KilnVulkanRuntimeTests \
  KilnCUDARuntimeTests kiln-bundle kiln-bundle-cuda >/dev/null

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/unittests/fake-cuda"
cp "$build/bin/kiln-bench" "$build/bin/kiln-launch-overhead" \
   "$build/bin/kiln-cuda-launch-overhead" "$out/bin/"
# kiln-bench opens ../lib/libkiln_{vulkan,cuda}_runtime.so.
cp -L "$build/lib/libkiln_vulkan_runtime.so" "$build/lib/libkiln_cuda_runtime.so" \
   "$out/lib/"
# kiln-bench's Google Benchmark (found through its $ORIGIN/../lib rpath).
for lib in $(ldd "$build/bin/kiln-bench" | sed -n 's/.*=> \(.*libbenchmark[^ ]*\) .*/\1/p'); do
  cp -L "$lib" "$out/lib/"
done
cp "$build/unittests/KilnUnitTests" "$build/unittests/KilnVulkanRuntimeTests" \
   "$build/unittests/KilnCUDARuntimeTests" "$out/unittests/"
cp "$build/unittests/fake-cuda/libcuda.so.1" "$out/unittests/fake-cuda/"
cp -R "$build/kiln-bundle" "$out/bundle-vulkan"
cp -R "$build/kiln-bundle-cuda" "$out/bundle-cuda"
strip --strip-unneeded "$out"/bin/* "$out"/lib/*.so "$out"/unittests/Kiln* \
  2>/dev/null || true
cp scripts/device-kit-run "$out/run"
chmod +x "$out/run"
du -sh "$out"
