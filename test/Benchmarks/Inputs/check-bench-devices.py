#!/usr/bin/env python3
"""check-bench-devices.py JSON CSV BACKEND DEVICES: checks the multi-device
counters of a kiln-bench --json report of a run with DEVICES devices listed
on BACKEND, and that its --csv report has the same columns.

Every row has the counters devices, aggregate_per_second,
device<i>_per_second (i < DEVICES), alone_per_second, efficiency and
efficiency_best: 1 and zeros on the rows of one device, zeros in the spread
statistics (stddev, cv). On the kiln_xN rows (Kiln's kernel on all devices
at once; there must be some, of the stream and SGEMM kernels only) they are
checked against each other repetition by repetition: the aggregate is the
row's own throughput, the slowest device took the round's time, every other
device at most that, and the efficiency is the aggregate over DEVICES times
device 0 alone (its paired median over the repetitions, and of the best
times)."""
import csv
import json
import statistics
import sys

doc = json.load(open(sys.argv[1]))
backend, devices = sys.argv[3], int(sys.argv[4])
key = "kiln_" + backend.replace("-", "_")
assert doc["context"][key + "_devices"].startswith(str(devices)), doc["context"]

per_device = ["device%d_per_second" % i for i in range(devices)]
columns = ["devices", "aggregate_per_second", "alone_per_second",
           "efficiency", "efficiency_best"] + per_device
multi = "kiln_x%d" % devices
cases = {}
for b in doc["benchmarks"]:
    for c in columns:
        assert c in b, "%s lacks %s" % (b["name"], c)
    assert "device%d_per_second" % devices not in b, b
    case = b["run_name"].split("/iterations:")[0]
    kernel, variant, row_backend, size = case.split("/")
    assert row_backend == backend, b
    assert not b.get("error_occurred"), b
    spread = b.get("aggregate_name") in ("stddev", "cv")
    if variant != multi:
        assert b["devices"] == (0 if spread else 1), b
        assert all(b[c] == 0 for c in columns[1:]), b
        continue
    assert kernel.startswith("stream_") or kernel.startswith("sgemm_"), b
    assert b["devices"] == (0 if spread else devices), b
    cases.setdefault(case, []).append(b)
assert cases, "no %s rows" % multi


def near(a, b, tolerance=1e-5):
    return abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-30)


for case, runs in cases.items():
    reps = sorted((r for r in runs if r["run_type"] == "iteration"),
                  key=lambda r: r["repetition_index"])
    assert reps, case
    ratios = []
    for r in reps:
        own = r.get("bytes_per_second", r.get("items_per_second"))
        aggregate = r["aggregate_per_second"]
        assert aggregate > 0 and near(aggregate, own), r
        # The slowest device ran as long as the round: its throughput is
        # its share of the aggregate; the others are at least as fast.
        share = aggregate / devices
        speeds = [r[c] for c in per_device]
        assert near(min(speeds), share), (case, speeds, share)
        assert all(s >= share * (1 - 1e-5) for s in speeds), (case, speeds)
        assert r["alone_per_second"] > 0, r
        ratios.append(aggregate / (devices * r["alone_per_second"]))
    paired = statistics.median(ratios)
    aggregates = [r["aggregate_per_second"] for r in reps]
    alones = [r["alone_per_second"] for r in reps]
    best = max(aggregates) / (devices * max(alones))
    for r in runs:
        if r.get("aggregate_name") in ("stddev", "cv"):
            assert all(r[c] == 0 for c in columns), r
            continue
        assert near(r["efficiency"], paired), (case, r["efficiency"], paired)
        assert near(r["efficiency_best"], best), (case, r["efficiency_best"],
                                                  best)
        assert 0 < r["efficiency"] < 4, r

rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(doc["benchmarks"]), (len(rows), len(doc["benchmarks"]))
for row, b in zip(rows, doc["benchmarks"]):
    assert row["name"] == b["name"], (row["name"], b["name"])
    for c in columns:
        assert near(float(row[c]), b[c], 1e-4), (row["name"], c, row[c], b[c])
print("ok: %d cases on %d devices" % (len(cases), devices))
