#!/bin/sh
# Configures and builds Kiln into build/ (two parallel jobs, as on CI).
set -eu
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKILN_WERROR="${KILN_WERROR:-OFF}"
fi
ninja -C build -j "${KILN_JOBS:-2}"
