#!/bin/sh
# Configures and builds Kiln into build/ (two parallel jobs, as on CI).
set -eu
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKILN_WERROR="${KILN_WERROR:-OFF}"
elif [ -n "${KILN_WERROR:-}" ]; then
  # KILN_WERROR in the environment applies to a configured build too.
  cmake -S . -B build -DKILN_WERROR="$KILN_WERROR" >/dev/null
fi
ninja -C build -j "${KILN_JOBS:-2}"
