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
        sys.exit("kiln-spirv-cpu-run: %s" % e)
    args = [a for a in compile_args + run_args
            if not a.startswith(("--device", "--robust-buffer-access"))]
    if os.environ.get("KILN_SPIRV_CPU_CHECKED") == "1":
        args.append("--checked")
    runner = shutil.which("kiln-spirv-cpu-runner") or "kiln-spirv-cpu-runner"
    return subprocess.call([runner, source] + args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
