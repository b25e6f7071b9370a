#!/usr/bin/env python3
"""kiln-vulkan-runner's command line, on the CPU.

    kiln_spirv_cpu_run.py FILE [kiln-vulkan-runner options]

Runs FILE with kiln-spirv-cpu-runner so that the Vulkan integration tests
check the spirv-cpu target with the same RUN and CHECK lines (the
build/test-spirv-cpu suite). --robust-buffer-access, which only means
something to a Vulkan device, is dropped; a device list keeps its length
(--device=0,0 or --device=lavapipe,1 is two CPU devices, --device=0,0); the
others are passed on. KILN_SPIRV_CPU_CHECKED=1 in the environment (lit's
`-D spirv-cpu-checked=1`) runs every test in checked mode.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "AOT", "Inputs"))
from kiln_aot_run import run_with  # noqa: E402


def cpu_devices(arg):
    """--device=LIST as as many CPU devices; a single device is the default
    one (the option is dropped)."""
    entries = arg.split("=", 1)[1].split(",")
    if len(entries) == 1:
        return []
    return ["--device=" + ",".join("0" for _ in entries)]


if __name__ == "__main__":
    checked = os.environ.get("KILN_SPIRV_CPU_CHECKED") == "1"
    argv = []
    for arg in sys.argv[1:]:
        argv += cpu_devices(arg) if arg.startswith("--device=") else [arg]
    sys.exit(run_with("kiln-spirv-cpu-run", "kiln-spirv-cpu-runner", argv,
                      ("--robust-buffer-access",),
                      ["--checked"] if checked else []))
