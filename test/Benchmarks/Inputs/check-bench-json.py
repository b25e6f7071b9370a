#!/usr/bin/env python3
"""check-bench-json.py JSON CSV: checks kiln-bench's --json output against
Google Benchmark's schema (the fields its tools read) and that the CSV has
one row per benchmark with the same best times."""
import csv
import json
import sys

doc = json.load(open(sys.argv[1]))
context = doc["context"]
for key in ("date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
            "cpu_scaling_enabled", "caches", "library_build_type"):
    assert key in context, "context lacks " + key
devices = context["kiln_devices"]
assert devices and all(d["device"] and d["driver"] for d in devices), devices

benchmarks = doc["benchmarks"]
assert len(benchmarks) > 40, len(benchmarks)
names = set()
for b in benchmarks:
    for key in ("name", "run_name", "run_type", "iterations", "real_time",
                "cpu_time", "time_unit", "repetitions", "threads"):
        assert key in b, "%s lacks %s" % (b.get("name"), key)
    assert b["run_type"] == "iteration" and b["time_unit"] == "us"
    assert not b.get("error_occurred"), b
    assert b["real_time"] > 0 and b["iterations"] >= 1, b
    assert ("bytes_per_second" in b) != ("items_per_second" in b), b
    assert b["name"] not in names, "duplicate " + b["name"]
    names.add(b["name"])

rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(benchmarks), (len(rows), len(benchmarks))
for row, b in zip(rows, benchmarks):
    name = "/".join((row["kernel"], row["variant"], row["backend"], row["size"]))
    assert name == b["name"], (name, b["name"])
    assert abs(float(row["best_us"]) - b["real_time"]) <= 1e-3 * b["real_time"]
print("ok: %d benchmarks" % len(benchmarks))
