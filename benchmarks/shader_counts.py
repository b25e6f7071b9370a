#!/usr/bin/env python3
"""The instructions kiln-bench's kernels execute, checked against a record.

    python3 benchmarks/shader_counts.py --backend vulkan|spirv-cpu
        [--build DIR] [--results FILE] [--save-results FILE]
        (--check FILE | --write FILE | --show)

Runs `kiln-bench --count-instructions --smoke --gemm-sizes=64` on the
backend (a CPU Vulkan driver such as lavapipe, or spirv-cpu) and reads each
case's shader instructions per launch (callgrind counts the driver's
JIT-compiled shader code, or spirv-cpu's compiled kernels: the count repeats
to the instruction, however loaded the machine). --results reads an earlier
run's JSON instead (--save-results keeps one).

--check FILE fails (exit 1), naming the case and both counts, when
  - any of Kiln's kernels (the kiln and kiln_address variants) executes more
    than 1% (--tolerance) above the count recorded in FILE;
  - on Vulkan, any Kiln kernel executes more instructions than its GLSL
    reference (--max-ratio, 1.0), or its count over the reference's grew
    more than 1% above the recorded ratio;
  - a recorded case was not measured, or a measured one is not recorded.
Lavapipe compiles shaders for the host CPU, so its counts are only
comparable on the CPU and driver they were recorded on: elsewhere the
Vulkan check compares the Kiln/reference ratios alone (both compiled the
same way) and says so. spirv-cpu's kernels are compiled for a generic x86-64
CPU ahead of time: their counts hold on any machine.

--write FILE records this run's counts for the backend in FILE (the other
backend's record is kept): run it when a change is meant to move a count,
and commit the file with the change.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KILN_VARIANTS = ("kiln", "kiln_address")
REFERENCE = {"vulkan": "glsl"}


def die(message):
    print("shader_counts.py: " + message, file=sys.stderr)
    sys.exit(2)


def cpu_model():
    """The CPU's model name and a digest of its feature flags: lavapipe
    compiles for both."""
    model, flags = "unknown", ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "unknown":
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags") and not flags:
                    flags = " ".join(sorted(line.split(":", 1)[1].split()))
    except OSError:
        pass
    digest = hashlib.sha256(flags.encode()).hexdigest()[:12]
    return "%s (flags %s)" % (model, digest)


def run_bench(build, backend, out):
    bench = os.path.join(build, "bin", "kiln-bench")
    if not os.access(bench, os.X_OK):
        die("no %s (build kiln-bench, or name the build with --build)" % bench)
    command = [bench, "--backend=" + backend, "--count-instructions",
               "--smoke", "--gemm-sizes=64", "--json=" + out,
               "--benchmark_color=false"]
    done = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:])
        die("%s exited with %d" % (" ".join(command), done.returncode))


def read_results(path, backend):
    """{kernel/variant/size: instructions} and the device kiln-bench names."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        die("cannot read kiln-bench's results %s: %s" % (path, e))
    key = "kiln_%s_device" % backend.replace("-", "_")
    device = data.get("context", {}).get(key, "")
    counts = {}
    for b in data.get("benchmarks", []):
        parts = b.get("name", "").split("/")
        if len(parts) < 4 or parts[2] != backend:
            continue
        count = b.get("instructions", 0)
        if count > 0:
            counts["/".join((parts[0], parts[1], parts[3]))] = int(count)
    if not counts:
        die("%s has no instruction counts for %s" % (path, backend))
    return counts, device


def ratios(counts, backend):
    """Each Kiln case's count over its reference's (same kernel and size)."""
    reference = REFERENCE.get(backend)
    out = {}
    if not reference:
        return out
    for name, count in counts.items():
        kernel, variant, size = name.split("/")
        ref = counts.get("/".join((kernel, reference, size)))
        if variant in KILN_VARIANTS and ref:
            out[name] = count / ref
    return out


def check(record, counts, device, backend, tolerance, max_ratio):
    entry = record.get(backend)
    if not entry:
        die("the record has no counts for %s (record them with --write)" %
            backend)
    recorded = entry["counts"]
    cpu = cpu_model()
    same_machine = backend != "vulkan" or (
        entry.get("device") == device and entry.get("cpu") == cpu)
    problems = []
    for name in sorted(set(recorded) | set(counts)):
        if name not in counts:
            problems.append("not measured: %s (recorded %d)" %
                            (name, recorded[name]))
        elif name not in recorded:
            problems.append("not recorded: %s: %d" % (name, counts[name]))
    if not same_machine:
        print("shader_counts.py: recorded on %s, %s; this is %s, %s: "
              "comparing Kiln's counts over the references' only" %
              (entry.get("device"), entry.get("cpu"), device, cpu))
    else:
        for name in sorted(set(recorded) & set(counts)):
            if name.split("/")[1] not in KILN_VARIANTS:
                continue
            was, now = recorded[name], counts[name]
            if now > was * (1 + tolerance):
                problems.append("grew: %s: %d, was %d (%+.2f%%)" %
                                (name, now, was, 100.0 * (now - was) / was))
    recorded_ratios = ratios(recorded, backend)
    for name, ratio in sorted(ratios(counts, backend).items()):
        if name.split("/")[1] == "kiln" and ratio > max_ratio:
            problems.append("above the reference: %s: %.4f of %s's count" %
                            (name, ratio, REFERENCE[backend]))
        was = recorded_ratios.get(name)
        if was and ratio > was * (1 + tolerance):
            problems.append("grew against the reference: %s: %.4f, was %.4f"
                            % (name, ratio, was))
    for p in problems:
        print(p)
    if problems:
        print("shader_counts.py: %d problems against the record of %s" %
              (len(problems), backend))
        return 1
    print("shader_counts.py: no count grew (%s, %d cases)" %
          (backend, len(counts)))
    return 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", required=True,
                        choices=("vulkan", "spirv-cpu"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--results", help="kiln-bench JSON to read "
                        "instead of running kiln-bench")
    parser.add_argument("--save-results", help="keep kiln-bench's JSON")
    parser.add_argument("--tolerance", type=float, default=0.01)
    parser.add_argument("--max-ratio", type=float, default=1.0,
                        help="fail where a Kiln kernel's count over the "
                        "reference's is above this (default 1.0)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", metavar="FILE")
    mode.add_argument("--write", metavar="FILE")
    mode.add_argument("--show", action="store_true")
    args = parser.parse_args()

    if args.results:
        counts, device = read_results(args.results, args.backend)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = args.save_results or os.path.join(tmp, "counts.json")
            run_bench(args.build, args.backend, out)
            counts, device = read_results(out, args.backend)

    if args.show:
        r = ratios(counts, args.backend)
        for name in sorted(counts):
            extra = " %.4f" % r[name] if name in r else ""
            print("%-40s %12d%s" % (name, counts[name], extra))
        return 0
    if args.write:
        record = {}
        if os.path.exists(args.write):
            with open(args.write) as f:
                record = json.load(f)
        record[args.backend] = {"device": device, "cpu": cpu_model(),
                                "counts": dict(sorted(counts.items()))}
        with open(args.write, "w") as f:
            json.dump(dict(sorted(record.items())), f, indent=1)
            f.write("\n")
        print("shader_counts.py: recorded %d cases of %s in %s" %
              (len(counts), args.backend, args.write))
        return 0
    try:
        with open(args.check) as f:
            record = json.load(f)
    except (OSError, ValueError) as e:
        die("cannot read the record %s: %s" % (args.check, e))
    return check(record, counts, device, args.backend, args.tolerance,
                 args.max_ratio)


if __name__ == "__main__":
    sys.exit(main())
