#!/usr/bin/env python3
"""kiln-vulkan-runner's command line, on CUDA.

    kiln_cuda_run.py FILE [kiln-vulkan-runner options]

Runs FILE with kiln-cuda-runner so that the Vulkan integration tests check
the CUDA path with the same RUN and CHECK lines (the build/test-cuda suite).
Options that only mean something on Vulkan (--validate, --target-env,
--use-64bit-index) are dropped; -e, --entry-point-result, -O, --device and
--print-timing are passed on.
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "AOT", "Inputs"))
from kiln_aot_run import split  # noqa: E402


def main(argv):
    try:
        source, compile_args, run_args, _ = split(argv)
    except ValueError as e:
        sys.exit("kiln-cuda-run: %s" % e)
    args = [a for a in compile_args + run_args
            if not a.startswith(("--target-env", "--use-64bit-index",
                                 "--validate"))]
    runner = shutil.which("kiln-cuda-runner") or "kiln-cuda-runner"
    return subprocess.call([runner, source] + args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
