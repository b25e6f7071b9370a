#!/usr/bin/env python3
"""check-bench-json.py JSON CSV [REPS]: checks kiln-bench's --json report
against Google Benchmark's schema (the fields its tools, compare.py among
them, read) and its --csv report against the JSON.

With REPS, every case ran REPS repetitions and Kiln's ratios are checked
against the repetitions themselves: ratio_paired is the median over k of the
reference's k-th time over Kiln's k-th, ratio_best the reference's fastest
time over Kiln's fastest, and each aggregate is what its name says."""
import csv
import json
import statistics
import sys

doc = json.load(open(sys.argv[1]))
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 1
context = doc["context"]
for key in ("date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
            "cpu_scaling_enabled", "caches", "library_build_type"):
    assert key in context, "context lacks " + key
assert context["kiln_vulkan_device"], context

runs = doc["benchmarks"]
cases = {}
for b in runs:
    for key in ("name", "run_name", "run_type", "iterations", "real_time",
                "cpu_time", "time_unit", "repetitions", "threads",
                "ratio_paired", "ratio_best"):
        assert key in b, "%s lacks %s" % (b.get("name"), key)
    assert b["time_unit"] == "us", b
    assert not b.get("error_occurred"), b
    assert b["repetitions"] == reps, b
    case = b["run_name"].split("/iterations:")[0]
    kernel, variant, backend, size = case.split("/")
    cases.setdefault(case, []).append(b)
    if b["run_type"] == "aggregate" and b["aggregate_unit"] != "time":
        continue
    if b.get("aggregate_name") == "stddev":
        continue
    assert b["real_time"] > 0 and b["iterations"] >= 1, b
    assert ("bytes_per_second" in b) != ("items_per_second" in b), b

assert len(cases) > 40 or reps > 1, len(cases)
for case, case_runs in cases.items():
    kernel, variant, backend, size = case.split("/")
    times = [r["real_time"] for r in sorted(
        (r for r in case_runs if r["run_type"] == "iteration"),
        key=lambda r: r["repetition_index"])]
    assert len(times) == reps, (case, times)
    aggregates = {r["aggregate_name"]: r for r in case_runs
                  if r["run_type"] == "aggregate"}
    if reps > 1:
        assert set(aggregates) >= {"mean", "median", "stddev", "fastest"}, \
            aggregates.keys()
        assert abs(aggregates["fastest"]["real_time"] - min(times)) <= 1e-6 * min(times)
        median = statistics.median(times)
        assert abs(aggregates["median"]["real_time"] - median) <= 1e-6 * median
    if variant not in ("kiln", "kiln_address"):
        assert all(r["ratio_paired"] == 0 for r in case_runs), case
        continue
    # Kiln's kernel against the hand-written one; its address-bound build
    # against Kiln's kernel.
    if variant == "kiln_address":
        assert backend == "vulkan" and kernel.endswith("_f32"), case
        reference = "/".join((kernel, "kiln", backend, size))
    else:
        reference = "/".join((kernel, "cuda" if backend == "cuda" else "glsl",
                              backend, size))
    ref_times = [r["real_time"] for r in sorted(
        (r for r in cases[reference] if r["run_type"] == "iteration"),
        key=lambda r: r["repetition_index"])]
    paired = statistics.median(r / k for r, k in zip(ref_times, times))
    best = min(ref_times) / min(times)
    for r in case_runs:
        if r.get("aggregate_name") in ("stddev", "cv"):
            assert r["ratio_paired"] == 0 and r["ratio_best"] == 0, r
            continue
        assert abs(r["ratio_paired"] - paired) <= 1e-5 * paired, (case, r, paired)
        assert abs(r["ratio_best"] - best) <= 1e-5 * best, (case, r, best)

rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(runs), (len(rows), len(runs))
for row, b in zip(rows, runs):
    assert row["name"] == b["name"], (row["name"], b["name"])
    # (Google Benchmark's CSV writes a cv as if it were a time.)
    if b.get("aggregate_name") != "cv":
        assert abs(float(row["real_time"]) - b["real_time"]) <= 1e-3 * b["real_time"]
    assert abs(float(row["ratio_paired"]) - b["ratio_paired"]) <= 1e-4
print("ok: %d cases, %d runs" % (len(cases), len(runs)))
