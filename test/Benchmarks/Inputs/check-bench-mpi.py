#!/usr/bin/env python3
"""check-bench-mpi.py JSON CSV BACKEND RANKS: checks a kiln-bench --json
report of a run under mpirun with RANKS ranks on BACKEND, and that its --csv
report has the same rows and columns.

Every row is an MPI row and has the counters ranks and busbw_per_second
(zeros in the spread statistics) and the multi-device ones. The stream rows
(kiln_mpiN: Kiln's kernel on every rank at once) are checked repetition by
repetition: the aggregate is the row's own throughput, the slowest rank
took the round's time and every other rank at most that, and the
efficiency is the aggregate over RANKS times rank 0 alone. The allreduce
rows (kiln_mpiN_host and kiln_mpiN_device at each size, in bytes) have
algbw = bytes / time as their throughput, busbw = algbw x 2(n-1)/n, and
the device rows' ratio over the host row of their size."""
import csv
import json
import statistics
import sys

doc = json.load(open(sys.argv[1]))
backend, ranks = sys.argv[3], int(sys.argv[4])
assert doc["context"]["kiln_mpi"].startswith("%d ranks, " % ranks), doc[
    "context"]

per_rank = ["device%d_per_second" % i for i in range(ranks)]
multi = ["devices", "aggregate_per_second", "alone_per_second", "efficiency",
         "efficiency_best"] + per_rank
columns = ["ranks", "busbw_per_second"] + multi
stream, allreduce = {}, {}
for b in doc["benchmarks"]:
    for c in columns:
        assert c in b, "%s lacks %s" % (b["name"], c)
    assert not b.get("error_occurred"), b
    case = b["run_name"].split("/iterations:")[0]
    kernel, variant, row_backend, size = case.split("/")
    assert row_backend == backend, b
    spread = b.get("aggregate_name") in ("stddev", "cv")
    assert b["ranks"] == (0 if spread else ranks), b
    if spread:
        assert all(b[c] == 0 for c in columns), b
        continue
    if variant == "kiln_mpi%d" % ranks:
        assert kernel.startswith("stream_") and kernel.endswith("_f32"), b
        assert b["devices"] == ranks and b["busbw_per_second"] == 0, b
        stream.setdefault(case, []).append(b)
    else:
        assert kernel == "allreduce_sum_f32", b
        assert variant in ("kiln_mpi%d_host" % ranks,
                           "kiln_mpi%d_device" % ranks), b
        allreduce[(variant.rsplit("_", 1)[1], int(size))] = b
assert stream, "no stream rows"
assert allreduce, "no allreduce rows"


def near(a, b, tolerance=1e-5):
    return abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-30)


for case, runs in stream.items():
    reps = [r for r in runs if r["run_type"] == "iteration"]
    assert reps, case
    ratios = []
    for r in reps:
        aggregate = r["aggregate_per_second"]
        assert aggregate > 0 and near(aggregate, r["bytes_per_second"]), r
        share = aggregate / ranks
        speeds = [r[c] for c in per_rank]
        assert near(min(speeds), share), (case, speeds, share)
        assert all(s >= share * (1 - 1e-5) for s in speeds), (case, speeds)
        assert r["alone_per_second"] > 0, r
        ratios.append(aggregate / (ranks * r["alone_per_second"]))
    for r in runs:
        assert near(r["efficiency"], statistics.median(ratios)), r
        assert 0 < r["efficiency"] < 4, r

factor = 2.0 * (ranks - 1) / ranks
for (buffers, size), r in allreduce.items():
    seconds = r["real_time"] * 1e-6
    assert r["time_unit"] == "us" and seconds > 0, r
    assert near(r["bytes_per_second"], size / seconds, 1e-4), r
    assert near(r["busbw_per_second"], r["bytes_per_second"] * factor), r
    assert r["devices"] == 1 and r["aggregate_per_second"] == 0, r
    if buffers == "device" and ("host", size) in allreduce:
        host = allreduce[("host", size)]
        assert near(r["ratio_best"],
                    host["real_time"] / r["real_time"], 1e-4), (r, host)
        assert r["ratio_paired"] > 0, r
    else:
        assert r["ratio_paired"] == 0, r

rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(doc["benchmarks"]), (len(rows), len(doc["benchmarks"]))
for row, b in zip(rows, doc["benchmarks"]):
    assert row["name"] == b["name"], (row["name"], b["name"])
    for c in columns:
        assert near(float(row[c]), b[c], 1e-4), (row["name"], c, row[c], b[c])
print("ok: %d stream cases and %d allreduce cases on %d ranks" %
      (len(stream), len(allreduce), ranks))
