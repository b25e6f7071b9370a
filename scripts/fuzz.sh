#!/bin/sh
# Runs Kiln's libFuzzer targets (built with -DKILN_FUZZ=ON, as
# scripts/test.sh --sanitize does in build-asan) for a fixed number of
# inputs each, from a fixed seed, so that a run is repeatable (about a
# minute and a half on two cores):
#
#   scripts/fuzz.sh [BUILD] [--scale=K]    (default build-asan; K times the
#                                           inputs: 2M container, 300k module,
#                                           20k pipeline, 20k MLIR)
#
# Seeds: test/fuzz/corpus/{container,module} (containers the compiler
# writes now; a unit test checks that they load), corpus/refused (inputs
# that once crashed a driver, which the runtime must refuse) and the lit
# tests' MLIR programs. New inputs go to a temporary folder; a crash
# leaves its input in BUILD/fuzz/crashes (add it to the corpus as a
# regression test once fixed).
set -eu
cd "$(dirname "$0")/.."
build=build-asan
scale=1
for arg in "$@"; do
  case $arg in
    --scale=*) scale=${arg#--scale=} ;;
    -h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) build=$arg ;;
  esac
done
bin=$build/fuzz
if [ ! -x "$bin/kiln-fuzz-container" ]; then
  echo "fuzz.sh: no fuzz targets in $bin (configure with -DKILN_FUZZ=ON)" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/kiln-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$bin/crashes"
# allow_user_poisoning=0: see scripts/test.sh.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:allow_user_poisoning=0"
status=0
fuzz() {
  target=$1
  runs=$(($2 * scale))
  shift 2
  mkdir -p "$work/$target"
  echo "== $target: $runs inputs"
  if ! "$bin/$target" -seed=1 -runs="$runs" -max_len=65536 -timeout=20 \
      -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$bin/crashes/$target-" "$work/$target" "$@" \
      >"$work/$target.log" 2>&1; then
    status=1
    tail -40 "$work/$target.log"
  else
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)" \
      "$work/$target.log" || true
  fi
}
fuzz kiln-fuzz-container 2000000 test/fuzz/corpus/container
fuzz kiln-fuzz-module 300000 test/fuzz/corpus/module test/fuzz/corpus/container
# Through pipeline creation on the first Vulkan device (lavapipe): slower.
fuzz kiln-fuzz-pipeline 20000 test/fuzz/corpus/module test/fuzz/corpus/container \
  test/fuzz/corpus/refused
fuzz kiln-fuzz-mlir 20000 test/Integration/Vulkan test/Conversion test/Target \
  test/Host test/Pipelines test/Transforms
exit $status
