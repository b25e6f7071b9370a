#!/usr/bin/env python3
"""Compile-time benchmark: milliseconds per kernel file through
`kiln-opt --kiln-gpu-to-spirv`, next to upstream's
`mlir-opt -test-vulkan-runner-pipeline` on the inputs upstream accepts.

Each tool runs in-process timing (`--mlir-timing`), so process start-up is not
counted; the number is the best of --reps runs of the whole pipeline,
including parsing and printing.

  benchmarks/compile_time.py [--reps N] [--build DIR] [FILES...]

Defaults: benchmarks/inputs (upstream-runner style kernels, which both
pipelines accept) and the kernel corpus under test/Corpus; 5 repetitions.
"""

import argparse
import glob
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOTAL = re.compile(r"Total Execution Time:\s*([0-9.]+) seconds")


def profile_of(path):
    """The --target-env a corpus file's RUN line asks for."""
    with open(path) as f:
        m = re.search(r"--target-env=(\S+)", f.read())
    return m.group(1) if m else "vulkan-1.1"


def time_once(cmd):
    proc = subprocess.run(cmd + ["--mlir-timing", "-o", os.devnull],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    m = TOTAL.search(proc.stderr)
    return float(m.group(1)) * 1000.0 if m else None


def best_ms(cmd, reps):
    times = []
    for _ in range(reps):
        t = time_once(cmd)
        if t is None:
            return None
        times.append(t)
    return min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    args = ap.parse_args()
    files = args.files or (
        sorted(glob.glob(os.path.join(ROOT, "benchmarks/inputs/*.mlir"))) +
        sorted(glob.glob(os.path.join(ROOT, "test/Corpus/*.mlir"))))
    kiln_opt = os.path.join(args.build, "bin", "kiln-opt")

    print(f"{'kernel file':40} {'kiln ms':>9} {'median':>8} {'upstream ms':>12} {'median':>8}")
    kiln_all, up_all, both_kiln, both_up = [], [], [], []
    for path in files:
        name = os.path.basename(path)
        kiln = best_ms([kiln_opt, path,
                        f"--kiln-gpu-to-spirv=target-env={profile_of(path)}"],
                       args.reps)
        up = best_ms([args.mlir_opt, path, "-test-vulkan-runner-pipeline"],
                     args.reps)
        ks = f"{kiln[0]:9.2f} {kiln[1]:8.2f}" if kiln else f"{'error':>9} {'':8}"
        us = f"{up[0]:12.2f} {up[1]:8.2f}" if up else f"{'rejected':>12} {'':8}"
        print(f"{name:40} {ks} {us}")
        if kiln:
            kiln_all.append(kiln[0])
        if up:
            up_all.append(up[0])
        if kiln and up:
            both_kiln.append(kiln[0])
            both_up.append(up[0])
    print()
    if kiln_all:
        print(f"kiln-opt --kiln-gpu-to-spirv: {len(kiln_all)}/{len(files)} files, "
              f"mean {statistics.mean(kiln_all):.2f} ms per file")
    print(f"mlir-opt -test-vulkan-runner-pipeline accepts {len(up_all)}/{len(files)} files"
          + (f", mean {statistics.mean(up_all):.2f} ms per file" if up_all else ""))
    if both_kiln:
        print(f"on the {len(both_kiln)} files both accept: kiln {statistics.mean(both_kiln):.2f} ms, "
              f"upstream {statistics.mean(both_up):.2f} ms "
              f"(kiln/upstream {statistics.mean(both_kiln) / statistics.mean(both_up):.2f}x; "
              "kiln also validates with SPIRV-Tools)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
