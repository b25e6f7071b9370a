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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "AOT", "Inputs"))
from kiln_aot_run import run_with  # noqa: E402


if __name__ == "__main__":
    sys.exit(run_with("kiln-cuda-run", "kiln-cuda-runner", sys.argv[1:],
                      ("--target-env", "--use-64bit-index", "--validate")))
