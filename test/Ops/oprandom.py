"""The random tester: kernels built from chains of ops, host against target.

Each program holds several chains; a chain applies 3 to 8 ops drawn from a
pool to three operands of one type (i32, i64 or f32) and their
intermediate results, in a kernel and on the host, to random inputs (edge
values among them). Integer chains use every integer op with its undefined
inputs guarded (divisors made odd, shifts masked); float chains use the ops
IEEE rounds exactly (add, sub, mul, min, max, neg, abs, floor, ceil,
select) on values of moderate magnitude, so that results agree bit for bit
on every target. A failure prints the chain and the seed that rebuilds it:

    python3 test/Ops/opcheck.py --random --seed=S --budget=SECONDS [--target=T]
"""

import os
import random
import shutil
import tempfile
import time

from opcheck import run as run_command
from opcheck import (Row, Tolerance, Program, Type, from_float, int_edges,
                     module_text, split_outputs, compare_program,
                     RUNNERS, runner_args, TARGETS, sig)

# (template producing %{p}N from operands x, y; the types it takes)
INT_OPS = [
    "arith.addi {x}, {y} : {T}",
    "arith.subi {x}, {y} : {T}",
    "arith.muli {x}, {y} : {T}",
    "arith.andi {x}, {y} : {T}",
    "arith.ori {x}, {y} : {T}",
    "arith.xori {x}, {y} : {T}",
    "arith.maxsi {x}, {y} : {T}",
    "arith.minsi {x}, {y} : {T}",
    "arith.maxui {x}, {y} : {T}",
    "arith.minui {x}, {y} : {T}",
    "math.absi {x} : {T}",
    "math.ctpop {x} : {T}",
    "math.ctlz {x} : {T}",
    "math.cttz {x} : {T}",
    # Guarded: shift amounts masked to the width, divisors made odd (never
    # zero; -1 only with an odd dividend, never the minimum integer).
    "SHIFT arith.shli",
    "SHIFT arith.shrsi",
    "SHIFT arith.shrui",
    "DIV arith.divui",
    "DIV arith.remui",
    "DIV arith.remsi",
    "DIV arith.floordivsi",
    "DIV arith.ceildivsi",
    "SELECT slt",
    "SELECT ugt",
]

FLOAT_OPS = [
    "arith.addf {x}, {y} : {T}",
    "arith.subf {x}, {y} : {T}",
    "arith.mulf {x}, {y} : {T}",
    "arith.maximumf {x}, {y} : {T}",
    "arith.minimumf {x}, {y} : {T}",
    "arith.negf {x} : {T}",
    "math.absf {x} : {T}",
    "math.floor {x} : {T}",
    "math.ceil {x} : {T}",
    "math.copysign {x}, {y} : {T}",
    "SELECT olt",
    "SELECT uge",
]


def chain(rng, t, length):
    """A template of `length` ops over {a}, {b}, {c} ending in {r}."""
    t = Type(t)
    pool = FLOAT_OPS if t.is_float else INT_OPS
    values = ["{a}", "{b}", "{c}"]
    lines = []
    width = t.width
    for k in range(length):
        op = rng.choice(pool)
        x = rng.choice(values)
        y = rng.choice(values)
        out = "%%{g}v%d" % k
        if op.startswith("SHIFT "):
            mask = "%%{g}m%d" % k
            lines.append("%s = arith.constant %d : %s" % (mask, width - 1,
                                                          t.text))
            amount = "%%{g}s%d" % k
            lines.append("%s = arith.andi %s, %s : %s" % (amount, y, mask,
                                                          t.text))
            lines.append("%s = %s %s, %s : %s" % (out, op[6:], x, amount,
                                                  t.text))
        elif op.startswith("DIV "):
            one = "%%{g}o%d" % k
            lines.append("%s = arith.constant 1 : %s" % (one, t.text))
            odd = "%%{g}d%d" % k
            lines.append("%s = arith.ori %s, %s : %s" % (odd, y, one, t.text))
            # x | 1 as well: the minimum integer (even) never meets -1.
            num = "%%{g}n%d" % k
            lines.append("%s = arith.ori %s, %s : %s" % (num, x, one, t.text))
            lines.append("%s = %s %s, %s : %s" % (out, op[4:], num, odd,
                                                  t.text))
        elif op.startswith("SELECT "):
            cond = "%%{g}c%d" % k
            kind = "cmpf" if t.is_float else "cmpi"
            lines.append("%s = arith.%s %s, %s, %s : %s" % (
                cond, kind, op[7:], x, y, t.text))
            z = rng.choice(values)
            lines.append("%s = arith.select %s, %s, %s : %s" % (out, cond, y,
                                                                z, t.text))
        else:
            lines.append(out + " = " + op.format(x=x, y=y, T=t.text))
        values.append(out)
    # The last value is the result.
    last = values[-1]
    lines = [l.replace(last + " =", "{r} =") for l in lines]
    lines = [l.replace(last, "{r}") if l.startswith("{r}") else l
             for l in lines]
    return "\n".join(lines)


def inputs_for(rng, t, count):
    t = Type(t)
    if t.is_float:
        vals = [rng.choice([-1, 1]) * rng.uniform(1e-3, 1e3)
                for _ in range(count)]
        vals[:4] = [0.0, -0.0, 1.0, -1.5]
        return [from_float(t, v) for v in vals]
    edges = int_edges(t.width)
    return [rng.choice(edges) if rng.random() < 0.3 else
            rng.getrandbits(t.width) for _ in range(count)]


def build(seed, chains=12, cases=48):
    """The rows of program `seed`: `chains` random chains."""
    rng = random.Random(seed)
    rows = []
    for k in range(chains):
        t = rng.choice(["i32", "i32", "i64", "f32", "f32"])
        template = chain(rng, t, rng.randint(3, 8))
        ins = [inputs_for(rng, t, cases) for _ in range(3)]
        cases_list = list(zip(*ins))
        rows.append(Row("random", name="random %d.%d" % (seed, k),
                        template=template,
                        signatures=[sig([t, t, t], [t])],
                        inputs=lambda ops, c=cases_list: c,
                        tol=Tolerance(note="exact")))
    return rows


def run_seed(env, seed, target, work):
    """(ok, messages) of program `seed` on `target`."""
    rows = build(seed)
    programs = [Program(r, r.signatures[0]) for r in rows]
    text = module_text(programs, env.params(target))
    src = os.path.join(work, "random-%d.%s.mlir" % (seed, target))
    with open(src, "w") as f:
        f.write(text)
    rc, so, se = run_command([env.tools.path(RUNNERS[target]), src] +
                     runner_args(target), timeout=300)
    if rc != 0:
        return False, ["seed %d on %s: the run failed (exit %d; program in "
                       "%s):\n%s" % (seed, target, rc, src, se.strip()[-2000:])]
    msgs = []
    for row, p, arrays in zip(rows, programs, split_outputs(so, len(programs))):
        if len(msgs) >= 3:
            msgs.append("... (more chains differ)")
            break
        diff = compare_program(p, target, arrays, limit=3)
        if diff:
            msgs.append("%s on %s differs from the host; the chain:\n%s\n%s"
                        % (row.name, target, row.template, "\n".join(diff)))
    return not msgs, msgs


def run(env, seed, budget, targets):
    """Programs from `seed` on, each on every target, until `budget`
    seconds have passed (at least one)."""
    start = time.time()
    work = tempfile.mkdtemp(prefix="oprandom.")
    report, ok, programs = [], True, 0
    try:
        while programs == 0 or time.time() - start < budget:
            for target in targets:
                passed, msgs = run_seed(env, seed + programs, target, work)
                ok &= passed
                report += msgs
            programs += 1
    finally:
        if ok:
            shutil.rmtree(work, ignore_errors=True)
    report.append("%d random programs of 12 chains (seeds %d to %d) on %s: "
                  "%s" % (programs, seed, seed + programs - 1,
                          ", ".join(targets),
                          "all agree with the host" if ok else "FAILED"))
    return ok, "\n".join(report)


def main(rows, env, args):
    targets = [args.target] if args.target else [
        t for t in TARGETS if t != "cuda" or env.runnable(t)]
    targets = [t for t in targets if env.runnable(t)]
    ok, report = run(env, args.seed, args.budget, targets)
    print(report)
    return 0 if ok else 1
