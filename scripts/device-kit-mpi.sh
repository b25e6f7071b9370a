#!/bin/sh
# Assembles Kiln's MPI device kit: what runs MPI programs on a GPU machine
# that has only a driver (no LLVM, no MPI, no compiler), in one folder of a
# few tens of MiB. Copy the folder there and run its `run` script.
#
#   scripts/device-kit-mpi.sh [BUILD_DIR] [OUT_DIR]   (default build, BUILD/kiln-device-kit-mpi)
#
# The kit holds:
# - the MPI integration programs (test/Integration/MPI and the example)
#   compiled for CUDA and for Vulkan (NAME-vk) into executables, with each
#   rank's expected output,
#   which this script takes from the same programs run here on spirv-cpu
#   under mpirun;
# - kiln-bench with the runtimes it opens;
# - Open MPI from this machine's Debian packages (mpirun, its daemons, plugins
#   and libraries), relocated into the kit (OPAL_PREFIX).
# `OUT/run [RESULTS_DIR]` runs the programs on 2 ranks and compares their
# output, then the allreduce sweep and the multi-rank stream of kiln-bench.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-$build/kiln-device-kit-mpi}
bin=$build/bin
mpirun=$(command -v mpirun.openmpi || command -v mpirun)

ninja -C "$build" -j "${KILN_JOBS:-2}" kiln-bench kiln-compile \
  kiln-spirv-cpu-runner kiln_cuda_runtime_static kiln_aot_main_cuda \
  kiln_spirv_cpu_runtime_static kiln_aot_main_spirv_cpu >/dev/null

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/programs" "$out/ompi"

# The programs: name, source, extra kiln-compile flags.
programs="dot:test/Integration/MPI/Inputs/dot.mlir
device-memory:test/Integration/MPI/Inputs/device-memory.mlir
ops:test/Integration/MPI/Inputs/ops.mlir
shard:test/Integration/MPI/shard.mlir
heat:examples/mpi-heat.mlir"
run_here() {
  # run_here EXE OUTDIR: 2 ranks here, each rank's stdout in OUTDIR/rank.N.
  dir=$(mktemp -d)
  OMPI_MCA_btl_vader_single_copy_mechanism=none \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    "$mpirun" --oversubscribe -n 2 --output-filename "$dir" "$1" </dev/null >/dev/null
  for r in 0 1; do
    sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' "$dir"/1/rank.$r/stdout >"$2.rank.$r"
  done
  rm -rf "$dir"
}
echo "$programs" | while IFS=: read -r name source; do
  "$bin/kiln-compile" "$source" --target=cuda --emit=exe -o "$out/programs/$name"
  # The same program on Vulkan, where there is a Vulkan driver.
  "$bin/kiln-compile" "$source" --target=vulkan --emit=exe \
    -o "$out/programs/$name-vk"
  tmp=$(mktemp)
  "$bin/kiln-compile" "$source" --target=spirv-cpu --emit=exe -o "$tmp"
  run_here "$tmp" "$out/programs/$name.expected"
  for r in 0 1; do
    cp "$out/programs/$name.expected.rank.$r" \
      "$out/programs/$name-vk.expected.rank.$r"
  done
  rm -f "$tmp"
done

cp "$bin/kiln-bench" "$out/bin/"
cp -L "$build/lib/libkiln_cuda_runtime.so" "$build/lib/libkiln_vulkan_runtime.so" \
  "$out/lib/"
for lib in $(ldd "$bin/kiln-bench" | sed -n 's/.*=> \(.*libbenchmark[^ ]*\) .*/\1/p'); do
  cp -L "$lib" "$out/lib/"
done

# Open MPI as Debian installs it, under ompi/ with the same layout below
# /usr, and the libraries it needs that a bare machine may lack in
# ompi/deps. The C library and the compiler's runtime stay the machine's.
ompi=$out/ompi
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
mkdir -p "$ompi/bin" "$ompi/lib/$multiarch" "$ompi/share" "$ompi/deps"
cp -L /usr/bin/orterun /usr/bin/orted "$ompi/bin/"
ln -s orterun "$ompi/bin/mpirun"
cp -a "/usr/lib/$multiarch/openmpi" "$ompi/lib/$multiarch/"
rm -rf "$ompi/lib/$multiarch/openmpi/include"
cp -a "/usr/lib/$multiarch/pmix2" "$ompi/lib/$multiarch/"
cp -a /usr/share/openmpi "$ompi/share/"
[ -d /usr/share/pmix ] && cp -a /usr/share/pmix "$ompi/share/"
for f in /usr/bin/orterun /usr/bin/orted "/usr/lib/$multiarch/libmpi.so.40" \
    "/usr/lib/$multiarch"/openmpi/lib/openmpi3/*.so \
    "/usr/lib/$multiarch"/pmix2/lib/pmix/*.so; do
  ldd "$f" 2>/dev/null | awk '/=>/ {print $3}'
done | sort -u | grep -v -E '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$ompi/deps/"; done

strip --strip-unneeded "$out"/bin/* "$out"/lib/*.so* 2>/dev/null || true
for exe in "$out"/programs/*; do
  case $exe in *.expected.*) ;; *) strip --strip-unneeded "$exe" ;; esac
done
cp scripts/device-kit-mpi-run "$out/run"
chmod +x "$out/run"
du -sh "$out"
