#!/usr/bin/env python3
"""kiln-vulkan-runner's command line, on the CPU.

    kiln_spirv_cpu_run.py FILE [kiln-vulkan-runner options]

Runs FILE with kiln-spirv-cpu-runner so that the Vulkan integration tests
check the spirv-cpu target with the same RUN and CHECK lines (the
build/test-spirv-cpu suite). Options that only mean something to a Vulkan
device (--device, --robust-buffer-access) are dropped; the others are passed
on. KILN_SPIRV_CPU_CHECKED=1 in the environment (lit's
`-D spirv-cpu-checked=1`) runs every test in checked mode.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "AOT", "Inputs"))
from kiln_aot_run import run_with  # noqa: E402


if __name__ == "__main__":
    checked = os.environ.get("KILN_SPIRV_CPU_CHECKED") == "1"
    sys.exit(run_with("kiln-spirv-cpu-run", "kiln-spirv-cpu-runner", sys.argv[1:],
                      ("--device", "--robust-buffer-access"),
                      ["--checked"] if checked else []))
