#!/usr/bin/env python3
"""Kiln's op coverage table and differential tester.

The table (optable.py) has one row per op a kernel may hold. Each row says,
per target (vulkan, spirv-cpu, cuda), whether Kiln lowers the op, expands it
first (and how), or refuses it (and why), and how to test it: the op applied
to edge values inside a kernel and, in the same program, on the host through
MLIR's LLVM path. The two results are compared here, bit for bit or within
the tolerance the row names. docs/ops.md is written from the same table.

    opcheck.py --list                       the rows
    opcheck.py --run ROW [--target=T]       run one row on one target or all
    opcheck.py --emit ROW [--type=T]        print a row's program
    opcheck.py --write-docs FILE            write docs/ops.md
    opcheck.py --check-docs FILE            fail when FILE is not current
    opcheck.py --random --seed=S --budget=SECONDS [--target=T]
                                            random chains of ops, host vs target
    opcheck.py --kit DIR                    compile every row for a GPU machine
    opcheck.py --check-kit DIR              compare what the kit printed there

Tools are taken from --tools (default: the build's bin folder beside this
script's build tree, or PATH).
"""

import argparse
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

TARGETS = ("vulkan", "spirv-cpu", "cuda")

# ---------------------------------------------------------------------------
# Types and values
# ---------------------------------------------------------------------------


class Type:
    """A scalar or 1-D vector type of MLIR."""

    def __init__(self, text):
        self.text = text
        m = re.fullmatch(r"vector<(\d+)x(\w+)>", text)
        if m:
            self.lanes = int(m.group(1))
            self.elem = m.group(2)
        else:
            self.lanes = 0
            self.elem = text
        e = self.elem
        if e == "index":
            self.kind, self.width = "index", 64
        elif e.startswith("i"):
            self.kind, self.width = "int", int(e[1:])
        elif e in ("f16", "bf16", "f32", "f64"):
            self.kind, self.width = "float", {"f16": 16, "bf16": 16, "f32": 32,
                                              "f64": 64}[e]
        else:
            raise ValueError("unsupported type " + text)

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, Type) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    @property
    def scalar(self):
        return Type(self.elem)

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def bits_type(self):
        """The integer type of the same width that carries the bits."""
        if self.kind == "index":
            return "i64"
        return "i%d" % self.width

    @property
    def storage(self):
        """The element type of the memrefs that carry values of this scalar
        type in and out of kernels: Vulkan buffers hold no i1 and no index
        (i1 travels as i32, index as i64)."""
        if self.elem == "i1":
            return "i32"
        if self.elem == "index":
            return "i64"
        return self.elem

    @property
    def storage_bits(self):
        """The integer type of the storage's bits (what the inputs' globals
        hold)."""
        st = Type(self.storage)
        return st.text if st.kind == "int" else st.bits_type

    @property
    def print_width(self):
        """The width the printed bits are widened to (32 or 64)."""
        return 64 if self.width > 32 else 32

    def with_elem(self, elem):
        return Type("vector<%dx%s>" % (self.lanes, elem) if self.lanes else elem)


def to_float(t, bits):
    if t.elem == "f32":
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if t.elem == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]
    if t.elem == "f16":
        return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
    if t.elem == "bf16":
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    raise ValueError(t)


def from_float(t, value):
    if t.elem == "f32":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if t.elem == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if t.elem == "f16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if t.elem == "bf16":
        return struct.unpack("<I", struct.pack("<f", value))[0] >> 16
    raise ValueError(t)


def signed(t, bits):
    w = t.width
    bits &= (1 << w) - 1
    return bits - (1 << w) if bits >> (w - 1) else bits


def unsigned(t, bits):
    return bits & ((1 << t.width) - 1)


def value(t, bits):
    """The value `bits` stands for: a float, or a signed integer."""
    return to_float(t, bits) if t.is_float else signed(t, bits)


def describe(t, bits):
    if t.is_float:
        v = to_float(t, bits)
        return "%r (0x%0*x)" % (v, t.width // 4, unsigned(t, bits))
    s = signed(t, bits)
    return "%d" % s if t.width > 1 else str(bits & 1)


def float_fields(t):
    """(exponent bits, mantissa bits) of a float type."""
    return {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23),
            "f64": (11, 52)}[t.elem]


def is_nan(t, bits):
    e, m = float_fields(t)
    exp = (bits >> m) & ((1 << e) - 1)
    return exp == (1 << e) - 1 and bits & ((1 << m) - 1) != 0


def is_denormal(t, bits):
    e, m = float_fields(t)
    exp = (bits >> m) & ((1 << e) - 1)
    return exp == 0 and bits & ((1 << m) - 1) != 0


def flush(t, bits):
    """The value with a denormal flushed to a zero of its sign."""
    if t.is_float and is_denormal(t, bits):
        return bits & (1 << (t.width - 1))
    return bits


def int_edges(width, small=False):
    """Edge values of an integer type, as bit patterns: zero, small values,
    -1, the extremes and their neighbours (fewer for ops of several
    operands), alternating bits."""
    mask = (1 << width) - 1
    lo = 1 << (width - 1)
    if width == 1:
        return [0, 1]
    if small:
        vals = [0, 1, 3, 7, mask, mask - 6, lo, lo - 1, lo + 1]
    else:
        vals = [0, 1, 2, 3, 7, mask, mask - 1, mask - 6, lo, lo + 1, lo - 1,
                lo - 2, 0x55555555 & mask, 0xAAAAAAAA & mask,
                1 << (width // 2)]
    out = []
    for v in vals:
        if v & mask not in out:
            out.append(v & mask)
    return out


def float_edges(t, small=False):
    """Edge values of a float type: zeros, infinities, a NaN, the largest
    and smallest normal, denormals, ones and halfway cases (a shorter list
    for ops of several operands)."""
    e, m = float_fields(t)
    sign = 1 << (t.width - 1)
    inf = ((1 << e) - 1) << m
    nan = inf | (1 << (m - 1))
    vals = [0, sign, inf, sign | inf, nan, inf - 1]
    if small:
        vals += [1 << m, 1]
        values = (1.0, -1.0, 0.5, 2.5, -2.5, 3.0, -0.7,
                  1e4 if t.width > 16 else 100.0)
    else:
        vals += [sign | (inf - 1), 1 << m, sign | (1 << m), 1, sign | 1,
                 (1 << m) - 1]
        values = (1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, -0.7, 10.0,
                  -100.25, 3.14159265358979, 1e4,
                  65504.0 if t.elem == "f16" else 1e30)
    for v in values:
        vals.append(from_float(t, v))
    out = []
    for v in vals:
        if v not in out:
            out.append(v)
    return out


def edges(t, small=False):
    s = t.scalar
    if s.is_float:
        return float_edges(s, small)
    return int_edges(s.width, small)


def float_range(t, lo, hi, n=24):
    """Values spread over [lo, hi] with both ends, as bit patterns."""
    vals = [lo + (hi - lo) * i / (n - 1) for i in range(n)]
    vals += [0.0, -0.0] if lo <= 0 <= hi else []
    return [from_float(t.scalar, v) for v in vals]


# ---------------------------------------------------------------------------
# Rows
# ---------------------------------------------------------------------------


class Status:
    """How a target treats an op."""

    def __init__(self, kind, how="", match=None):
        self.kind = kind  # "lowered", "kiln", "expanded", "refused"
        self.how = how
        self.match = match

    @property
    def runs(self):
        return self.kind != "refused"

    def cell(self):
        if self.kind == "lowered":
            return "lowered" + (": " + self.how if self.how else "")
        if self.kind == "kiln":
            return "Kiln's lowering: " + self.how
        if self.kind == "expanded":
            return "expanded: " + self.how
        return "refused: " + self.how


def lowered(how=""):
    return Status("lowered", how)


def kiln(how):
    return Status("kiln", how)


def expanded(how):
    return Status("expanded", how)


def refused(how, match):
    """Refused with reason `how`; the compile error must match `match`."""
    return Status("refused", how, match)


class Tolerance:
    """How a target's result may differ from the host's."""

    def __init__(self, ulp=0, abs_err=0.0, rel=0.0, any_nan=True,
                 signed_zero=True, any_value_where=None, note="",
                 abs_of=None, ulp_of=None):
        # abs_of / ulp_of: the absolute error / ULPs allowed, as functions
        # of the inputs.
        self.abs_of = abs_of
        self.ulp_of = ulp_of
        self.ulp = ulp
        self.abs_err = abs_err
        self.rel = rel
        self.any_nan = any_nan
        self.signed_zero = signed_zero
        # A predicate of the inputs' values where any result is accepted
        # (outside the range the target's precision is defined on).
        self.any_value_where = any_value_where
        self.note = note

    def describe(self):
        parts = []
        if self.ulp:
            parts.append("%g ULP" % self.ulp)
        if self.abs_err:
            parts.append("abs %g" % self.abs_err)
        if self.rel:
            parts.append("rel %g" % self.rel)
        if not parts:
            parts.append("exact")
        if self.note:
            parts.append(self.note)
        return ", ".join(parts)


EXACT = Tolerance()


class Row:
    """One op of the table.

    kind "elementwise": `template` is the op in MLIR with {r} (or {r0}, {r1}
    for several results), {a}, {b}, {c} for the operands and {T}, {T0}, {T1},
    {R} for their types; `signatures` lists (operand types, result types).
    kind "snippet": `program` builds a whole program for a target; `expect`
    the lines its output must hold.
    """

    def __init__(self, op, dialect=None, kind="elementwise", template=None,
                 signatures=(), valid=None, tol=EXACT, inputs=None,
                 vulkan=None, spirv_cpu=None, cuda=None, note="",
                 program=None, expect=None, cuda_tol=None, small=None,
                 vulkan_tol=None, name=None, host_template=None, globals=(),
                 test=None, acc=None, uniform=False, shared_bytes=0):
        self.op = op
        # The op must be reached by every invocation of a workgroup (no
        # bounds check around it; the cases fill whole workgroups).
        self.uniform = uniform
        # Dynamic workgroup memory of the launch, in bytes.
        self.shared_bytes = shared_bytes
        # (element type, size, initial value): an accumulator the template
        # updates as {ACC}; its final contents are compared.
        self.acc = acc
        self.row_name = name or op
        self.host_template = host_template
        self.globals = list(globals)
        self.test = test
        self.dialect = dialect or op.split(".")[0]
        self.kind = kind
        self.template = template
        self.signatures = list(signatures)
        self.valid = valid
        self.tol = tol
        self.cuda_tol = cuda_tol
        self.vulkan_tol = vulkan_tol
        self.inputs = inputs
        self.status = {"vulkan": vulkan or lowered(),
                       "cuda": cuda or lowered()}
        self.status["spirv-cpu"] = spirv_cpu or self.status["vulkan"]
        self.note = note
        self.program = program
        self.expect = expect
        self.small = small

    def tolerance(self, target):
        if target == "cuda" and self.cuda_tol:
            return self.cuda_tol
        if target in ("vulkan", "spirv-cpu") and self.vulkan_tol:
            return self.vulkan_tol
        return self.tol

    @property
    def name(self):
        return self.row_name


def sig(operands, results):
    """A signature: operand and result type names."""
    return ([Type(t) for t in operands], [Type(t) for t in results])


def same(types, arity, result=None):
    """Signatures of an op whose operands share one type (and so does the
    result, unless `result` names another)."""
    out = []
    for t in types:
        r = result if result else t
        if result and Type(t).lanes:
            r = Type(t).with_elem(result).text
        out.append(sig([t] * arity, [r]))
    return out


# ---------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------

BLOCK = 64


def cases_for(row, operands):
    """The input bit patterns, one tuple per case."""
    if row.inputs:
        per = row.inputs(operands)
    else:
        small = row.small if row.small is not None else len(operands) > 1
        if len(operands) > 2:
            per = [edges(t, small=True)[:7] for t in operands]
        else:
            per = [edges(t, small=small) for t in operands]
    if isinstance(per, list) and per and isinstance(per[0], tuple):
        tuples = per
    else:
        tuples = [()]
        for values in per:
            tuples = [c + (v,) for c in tuples for v in values]
    # index is 32 bits wide in Vulkan kernels (unless use-64bit-index):
    # index operands take 32-bit values.
    for k, t in enumerate(operands):
        if t.scalar.kind == "index":
            tuples = [c for c in tuples
                      if -2 ** 31 <= signed(t.scalar, c[k]) < 2 ** 31]
    if row.valid:
        types = [t.scalar for t in operands]
        tuples = [c for c in tuples
                  if row.valid([value(t, b) for t, b in zip(types, c)],
                               types)]
    return tuples


def mlir_dense(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


class Program:
    """An elementwise row's program for one signature: the inputs, the op on
    the host and in a kernel, and both results printed as bits.

    The host applies the op twice: to the inputs, and to the inputs with
    denormals flushed to zero (what a Vulkan driver may do by default); the
    kernel once. Each result is printed as its bits, host, flushed host and
    target in that order."""

    def __init__(self, row, signature):
        self.row = row
        self.operands, self.results = signature
        self.cases = cases_for(row, self.operands)
        lanes = max([t.lanes for t in self.operands + self.results] + [0])
        self.lanes = lanes or 1
        n = len(self.cases)
        if n == 0:
            raise ValueError("row %s has no valid inputs" % row.op)
        # Cases padded to whole vectors, and for rows whose op every
        # invocation of a workgroup must reach (barriers, subgroup and
        # workgroup operations), to whole workgroups.
        whole = BLOCK * self.lanes if row.uniform else self.lanes
        while len(self.cases) % whole:
            self.cases.append(self.cases[len(self.cases) % n])
        self.n = len(self.cases)
        self.flushed = [tuple(flush(t.scalar, c) for t, c in
                              zip(self.operands, case))
                        for case in self.cases]

    @property
    def title(self):
        return "%s (%s) -> %s" % (self.row.op, ", ".join(
            t.text for t in self.operands), ", ".join(t.text for t in
                                                      self.results))

    def op_text(self, prefix, args, extra):
        names = dict(extra)
        names["r"] = "%" + prefix + "r"
        for i in range(len(self.results)):
            names["r%d" % i] = "%" + prefix + "r%d" % i
        for i, a in enumerate(args):
            names["abc"[i]] = a
        for i, t in enumerate(self.operands):
            names["T%d" % i] = t.text
        names["T"] = self.operands[0].text if self.operands else ""
        for i, t in enumerate(self.results):
            names["R%d" % i] = t.text
        names["R"] = self.results[0].text
        template = self.row.template
        if prefix != "d" and self.row.host_template:
            template = self.row.host_template
        text = template.format(**names)
        outs = [names["r"]] if len(self.results) == 1 else [
            names["r%d" % i] for i in range(len(self.results))]
        return text, outs

    def body(self, prefix, index, inputs, outputs, indent, extra):
        """Loads the operands of case `index`, applies the op, stores."""
        lines = []
        args = []
        extra = dict(extra)
        extra["i"] = index
        for i, name in enumerate(inputs):
            extra["A%d" % i] = name
        if self.lanes > 1:
            lines.append("%%%sv = arith.muli %s, %%lanes : index" %
                         (prefix, index))
            at = "%" + prefix + "v"
        else:
            at = index
        for i, t in enumerate(self.operands):
            name = "%%%sa%d" % (prefix, i)
            st = t.scalar.storage
            if t.lanes:
                lines.append("%s = vector.load %s[%s] : memref<%dx%s>, %s" %
                             (name, inputs[i], at, self.n, t.elem, t.text))
            elif st != t.text:
                lines.append("%s_m = memref.load %s[%s] : memref<%dx%s>" %
                             (name, inputs[i], at, self.n, st))
                conv = ("arith.trunci" if t.elem == "i1" else
                        "arith.index_cast")
                lines.append("%s = %s %s_m : %s to %s" % (name, conv, name,
                                                          st, t.text))
            else:
                lines.append("%s = memref.load %s[%s] : memref<%dx%s>" %
                             (name, inputs[i], at, self.n, t.text))
            args.append(name)
        text, outs = self.op_text(prefix, args, extra)
        lines += text.strip().split("\n")
        for o, t, out in zip(outs, self.results, outputs):
            st = t.scalar.storage
            if t.lanes:
                lines.append("vector.store %s, %s[%s] : memref<%dx%s>, %s" %
                             (o, out, at, self.n, t.elem, t.text))
            elif st != t.text:
                conv = ("arith.extui" if t.elem == "i1" else
                        "arith.index_cast")
                lines.append("%s_m = %s %s : %s to %s" % (o, conv, o, t.text,
                                                          st))
                lines.append("memref.store %s_m, %s[%s] : memref<%dx%s>" %
                             (o, out, at, self.n, st))
            else:
                lines.append("memref.store %s, %s[%s] : memref<%dx%s>" %
                             (o, out, at, self.n, t.text))
        return "\n".join(indent + l for l in lines)

    def function(self, name, marker, params=None):
        """(globals, func.func @name) of this program; `marker` is printed
        first so that several programs can share one module. `params` fill
        the target's placeholders ({SG}: its subgroup size)."""
        G, L = [], []
        extra = {"g": name, "N": str(self.n), "LAST": str(self.n - 4),
                 "SG": "32", "IW": "64"}
        extra.update(params or {})
        for g in self.row.globals:
            G.append(g.format(**extra))
        n = self.n
        invocations = n // self.lanes
        blocks = (invocations + BLOCK - 1) // BLOCK
        any_float = any(t.is_float for t in self.operands)
        for which, cases in (("in", self.cases), ("fz", self.flushed)):
            if which == "fz" and not any_float:
                continue
            for i, t in enumerate(self.operands):
                s = t.scalar
                G.append('memref.global "private" constant @%s_%s%d : '
                         'memref<%dx%s> = dense<%s>' % (
                             name, which, i, n, s.storage_bits,
                             mlir_dense(signed(Type(s.storage_bits), c[i])
                                        for c in cases)))
        G.append('memref.global "private" constant @%s_marker : memref<2xi64> '
                 '= dense<[-7777777, %d]>' % (name, marker))
        ind = "  "
        L.append("func.func @%s() {" % name)
        L.append(ind + "%c0 = arith.constant 0 : index")
        L.append(ind + "%c1 = arith.constant 1 : index")
        L.append(ind + "%%lanes = arith.constant %d : index" % self.lanes)
        L.append(ind + "%%n = arith.constant %d : index" % n)
        L.append(ind + "%%ni = arith.constant %d : index" % invocations)
        L.append(ind + "%%nb = arith.constant %d : index" % blocks)
        L.append(ind + "%%bs = arith.constant %d : index" % BLOCK)
        L.append(ind + "%%mk = memref.get_global @%s_marker : memref<2xi64>" %
                 name)
        L.append(ind + "%mkc = memref.cast %mk : memref<2xi64> to memref<*xi64>")
        L.append(ind + "call @printMemrefI64(%mkc) : (memref<*xi64>) -> ()")
        sets = {}
        for which in ("in", "fz"):
            if which == "fz" and not any_float:
                sets["fz"] = sets["in"]
                continue
            names = []
            for i, t in enumerate(self.operands):
                s = t.scalar
                g = "%%%s_g%d" % (which, i)
                v = "%%%s%d" % (which, i)
                L.append(ind + "%s = memref.get_global @%s_%s%d : memref<%dx%s>"
                         % (g, name, which, i, n, s.storage_bits))
                L.append(ind + "%s = memref.alloc() : memref<%dx%s>" %
                         (v, n, s.storage))
                L.append(ind + "scf.for %i = %c0 to %n step %c1 {")
                L.append(ind + "  %%b = memref.load %s[%%i] : memref<%dx%s>" %
                         (g, n, s.storage_bits))
                x = "%b"
                if s.kind == "float":
                    L.append(ind + "  %%x = arith.bitcast %%b : %s to %s" %
                             (s.bits_type, s.text))
                    x = "%x"
                L.append(ind + "  memref.store %s, %s[%%i] : memref<%dx%s>" %
                         (x, v, n, s.storage))
                L.append(ind + "}")
                names.append(v)
            sets[which] = names
        outs = {}
        for which in ("host", "flushed", "dev"):
            outs[which] = []
            for j, t in enumerate(self.results):
                s = t.scalar
                v = "%%%s%d" % (which, j)
                L.append(ind + "%s = memref.alloc() : memref<%dx%s>" %
                         (v, n, s.storage))
                L += self.fill(ind, v, n, s.storage, "0")
                outs[which].append(v)
        # Accumulators of the rows that update shared memory ({ACC}).
        accs = {}
        if self.row.acc:
            at, size, init = self.row.acc
            size = self.n if size == "N" else size
            for which in ("host", "flushed", "dev"):
                v = "%%acc_%s" % which
                L.append(ind + "%s = memref.alloc() : memref<%dx%s>" %
                         (v, size, at))
                L += self.fill(ind, v, size, at, init)
                accs[which] = v
        # The host: MLIR's LLVM path on the CPU, on the inputs and on the
        # inputs with denormals flushed.
        for which, ins, pre in (("host", "in", "h"), ("flushed", "fz", "f")):
            L.append(ind + "scf.for %%%si = %%c0 to %%ni step %%c1 {" % pre)
            L.append(self.body(pre, "%%%si" % pre, sets[ins], outs[which],
                               ind + "  ", dict(extra, ACC=accs.get(which,
                                                                    ""))))
            L.append(ind + "}")
        # The kernel: one invocation per case.
        dynamic = ""
        if self.row.shared_bytes:
            L.append(ind + "%%dsm = arith.constant %d : i32" %
                     self.row.shared_bytes)
            dynamic = " dynamic_shared_memory_size %dsm"
        L.append(ind + "gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, "
                 "%gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in "
                 "(%sx = %bs, %sy = %c1, %sz = %c1)" + dynamic + " {")
        L.append(ind + "  %base = arith.muli %bx, %bs : index")
        L.append(ind + "  %di = arith.addi %base, %tx : index")
        body = self.body("d", "%di", sets["in"], outs["dev"], ind + "    ",
                         dict(extra, ACC=accs.get("dev", "")))
        if self.row.uniform:
            # Every invocation runs the op (the cases fill the workgroups).
            L.append(body)
        else:
            L.append(ind + "  %inside = arith.cmpi ult, %di, %ni : index")
            L.append(ind + "  scf.if %inside {")
            L.append(body)
            L.append(ind + "  }")
        L.append(ind + "  gpu.terminator")
        L.append(ind + "}")
        for j, t in enumerate(self.results):
            for which in ("host", "flushed", "dev"):
                L += self.print_bits(ind, outs[which][j], t.scalar,
                                     "%s%d" % (which, j))
        if self.row.acc:
            at, size, _ = self.row.acc
            size = self.n if size == "N" else size
            for which in ("host", "dev"):
                L += self.print_bits(ind, accs[which], Type(at),
                                     "acc" + which, size)
        for which in (("in", "fz") if any_float else ("in",)):
            for v in sets[which]:
                L.append(ind + "memref.dealloc %s : %s" % (
                    v, "memref<%dx%s>" % (n, self.operands[
                        sets[which].index(v)].scalar.storage)))
        for which in ("host", "flushed", "dev"):
            for j, v in enumerate(outs[which]):
                L.append(ind + "memref.dealloc %s : memref<%dx%s>" % (
                    v, n, self.results[j].scalar.storage))
        for v in accs.values():
            size = self.n if self.row.acc[1] == "N" else self.row.acc[1]
            L.append(ind + "memref.dealloc %s : memref<%dx%s>" % (
                v, size, self.row.acc[0]))
        L.append(ind + "return")
        L.append("}")
        return G, L

    def fill(self, ind, memref, n, elem, value):
        """Stores `value` (an MLIR literal, or a list of one per element)
        into every element."""
        t = Type(elem)
        if isinstance(value, (list, tuple)):
            out = []
            for k, v in enumerate(value):
                lit = str(v)
                if t.is_float and "." not in lit and "e" not in lit:
                    lit += ".0"
                out += [ind + "%%f_%s_%d = arith.constant %s : %s" % (
                            memref[1:], k, lit, elem),
                        ind + "%%i_%s_%d = arith.constant %d : index" % (
                            memref[1:], k, k),
                        ind + "memref.store %%f_%s_%d, %s[%%i_%s_%d] : "
                        "memref<%dx%s>" % (memref[1:], k, memref, memref[1:],
                                           k, n, elem)]
            return out
        literal = value
        if t.is_float and "." not in value:
            literal = value + ".0"
        return [ind + "%%f_%s = arith.constant %s : %s" % (
                    memref[1:], literal, elem),
                ind + "%%n_%s = arith.constant %d : index" % (memref[1:], n),
                ind + "scf.for %%i = %%c0 to %%n_%s step %%c1 {" % memref[1:],
                ind + "  memref.store %%f_%s, %s[%%i] : memref<%dx%s>" % (
                    memref[1:], memref, n, elem),
                ind + "}"]

    def print_bits(self, ind, memref, s, tag, count=None):
        n = self.n if count is None else count
        pw = s.print_width
        L = [ind + "%%p%s = memref.alloc() : memref<%dxi%d>" % (tag, n, pw),
             ind + "%%pn%s = arith.constant %d : index" % (tag, n),
             ind + "scf.for %%i = %%c0 to %%pn%s step %%c1 {" % tag,
             ind + "  %%v = memref.load %s[%%i] : memref<%dx%s>" % (memref, n,
                                                                   s.storage)]
        v = "%v"
        if s.storage != s.text:
            pass  # i1 and index are carried as i32 and i64 already
        else:
            if s.is_float:
                L.append(ind + "  %%u = arith.bitcast %%v : %s to %s" %
                         (s.text, s.bits_type))
                v = "%u"
            if s.width < pw:
                L.append(ind + "  %%w = arith.extui %s : %s to i%d" %
                         (v, s.bits_type, pw))
                v = "%w"
        L.append(ind + "  memref.store %s, %%p%s[%%i] : memref<%dxi%d>" %
                 (v, tag, n, pw))
        L.append(ind + "}")
        L.append(ind + "%%c%s = memref.cast %%p%s : memref<%dxi%d> to "
                 "memref<*xi%d>" % (tag, tag, n, pw, pw))
        L.append(ind + "call @printMemrefI%d(%%c%s) : (memref<*xi%d>) -> ()" %
                 (pw, tag, pw))
        L.append(ind + "memref.dealloc %%p%s : memref<%dxi%d>" % (tag, n, pw))
        return L


def module_text(programs, params=None):
    """One module running `programs` in order, each after its marker."""
    G, F = [], []
    calls = []
    for k, p in enumerate(programs):
        g, f = p.function("case%d" % k, k, params)
        G += g
        F += f
        calls.append("  call @case%d() : () -> ()" % k)
    head = ["func.func private @printMemrefI32(memref<*xi32>)",
            "func.func private @printMemrefI64(memref<*xi64>)"]
    main = ["func.func @main() {"] + calls + ["  return", "}"]
    return "\n".join(G + head + F + main) + "\n"


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


class Tools:
    def __init__(self, bindir=None):
        here = os.path.dirname(os.path.abspath(__file__))
        self.bindir = bindir
        if not self.bindir:
            guess = os.path.join(here, "..", "..", "build", "bin")
            self.bindir = guess if os.path.isdir(guess) else ""

    def path(self, name):
        if self.bindir:
            p = os.path.join(self.bindir, name)
            if os.path.exists(p):
                return p
        return shutil.which(name) or name


RUNNERS = {"vulkan": "kiln-vulkan-runner", "spirv-cpu": "kiln-spirv-cpu-runner",
           "cuda": "kiln-cuda-runner"}


def runner_args(target):
    if target == "vulkan":
        return ["--validate"]
    return []


def run(cmd, timeout=120, env=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s: %s" % (timeout, " ".join(cmd))


ARRAY = re.compile(r"data =\s*\n?\s*\[([^\]]*)\]", re.S)
MARKER = -7777777


def parse_arrays(stdout):
    out = []
    for m in ARRAY.finditer(stdout):
        body = m.group(1).strip()
        out.append([int(x) for x in body.replace("\n", " ").split(",") if
                    x.strip()])
    return out


def split_outputs(stdout, count):
    """The arrays each program of a module printed, by marker."""
    parts = [None] * count
    current = None
    for a in parse_arrays(stdout):
        if len(a) == 2 and a[0] == MARKER and 0 <= a[1] < count:
            current = a[1]
            parts[current] = []
        elif current is not None:
            parts[current].append(a)
    return parts


def ulp_distance(t, a, b):
    """ULPs between two floats of type t (bit patterns), across zero."""
    def ordered(x):
        x = unsigned(t, x)
        sign = 1 << (t.width - 1)
        return -(x & ~sign) if x & sign else x
    return abs(ordered(a) - ordered(b))


def close(t, want, got, tol, inputs):
    """Whether `got` is an acceptable result where `want` is the host's."""
    if not t.is_float:
        return unsigned(t, want) == unsigned(t, got)
    want, got = unsigned(t, want), unsigned(t, got)
    if want == got:
        return True
    if tol.any_value_where and inputs and tol.any_value_where(*inputs):
        return True
    wn, gn = is_nan(t, want), is_nan(t, got)
    if wn or gn:
        return wn and gn and tol.any_nan
    fw, fg = to_float(t, want), to_float(t, got)
    if fw == 0 and fg == 0:
        return not tol.signed_zero
    if math.isinf(fw) or math.isinf(fg):
        return False
    if tol.ulp and ulp_distance(t, want, got) <= tol.ulp:
        return True
    if tol.abs_err and abs(fw - fg) <= tol.abs_err:
        return True
    if tol.rel and abs(fw - fg) <= tol.rel * abs(fw):
        return True
    if tol.abs_of and inputs and abs(fw - fg) <= tol.abs_of(*inputs):
        return True
    if tol.ulp_of and inputs and ulp_distance(t, want, got) <= tol.ulp_of(*inputs):
        return True
    return False


def flushes_denormals(target):
    """Vulkan drivers may flush denormals (Vulkan's default float controls
    allow it); the CPU runtime and CUDA (no ftz) keep them."""
    return target == "vulkan"


def compare_program(program, target, arrays, limit=8):
    """Mismatch messages of one program's printed arrays."""
    row = program.row
    tol = row.tolerance(target)
    expected = 3 * len(program.results) + (2 if row.acc else 0)
    if arrays is None or len(arrays) != expected:
        return ["%s: expected %d printed arrays, got %s" % (
            program.title, expected, "none" if arrays is None else len(arrays))]
    msgs = []
    for j, rt in enumerate(program.results):
        t = rt.scalar
        host, flushed, dev = arrays[3 * j:3 * j + 3]
        # Vector results are stored element by element: n elements either way.
        for k in range(program.n):
            if program.lanes > 1 and not rt.lanes and k % program.lanes:
                continue  # a scalar result per vector of cases
            if len(host) <= k or len(dev) <= k:
                msgs.append("%s: %d results printed, %d cases" % (
                    program.title, min(len(host), len(dev)), program.n))
                return msgs
            case = program.cases[k]
            inputs = [value(s.scalar, c) for s, c in zip(program.operands,
                                                          case)]
            h, f, d = host[k], flushed[k], dev[k]
            good = close(t, h, d, tol, inputs)
            if not good and flushes_denormals(target):
                good = any(close(t, w, d, tol, inputs) for w in (
                    f, flush(t, h), flush(t, f)))
            if good:
                continue
            if len(msgs) >= limit:
                msgs.append("... (more)")
                return msgs
            ins = ", ".join(describe(s.scalar, c) for s, c in
                            zip(program.operands, case))
            which = "" if len(program.results) == 1 else " result %d" % j
            msgs.append("%s(%s)%s: host %s, %s %s" % (
                row.op, ins, which, describe(t, h), target, describe(t, d)))
    if row.acc:
        t = Type(row.acc[0])
        host, dev = arrays[-2:]
        for k, (h, d) in enumerate(zip(host, dev)):
            if not close(t, h, d, tol, []):
                msgs.append("%s: accumulator[%d] host %s, %s %s" % (
                    row.op, k, describe(t, h), target, describe(t, d)))
    return msgs


# ---------------------------------------------------------------------------
# Checking a row
# ---------------------------------------------------------------------------


class Env:
    """Where the tools are and which targets can run here."""

    def __init__(self, tools, targets=None):
        self.tools = tools
        self._runnable = {}
        self.targets = targets

    def params(self, target):
        """Placeholders of the target: {SG}, its subgroup size."""
        if target == "cuda":
            return {"SG": "32", "IW": "64"}
        if target == "spirv-cpu":
            return {"SG": "8", "IW": "32"}
        if "vulkan-sg" not in self._runnable:
            sg = "32"
            rc, so, _ = run([self.tools.path(RUNNERS["vulkan"]),
                             "--print-target-env"], timeout=60)
            m = re.search(r"subgroup_size = (\d+)", so)
            if rc == 0 and m:
                sg = m.group(1)
            self._runnable["vulkan-sg"] = sg
        return {"SG": self._runnable["vulkan-sg"], "IW": "32"}

    def runnable(self, target):
        if target not in self._runnable:
            if target == "spirv-cpu":
                self._runnable[target] = True
            else:
                rc, _, _ = run([self.tools.path(RUNNERS[target]),
                                "--list-devices"], timeout=60)
                self._runnable[target] = rc == 0
        return self._runnable[target]


COMPILE = {
    "vulkan": ["--target=vulkan", "--emit=spirv"],
    "spirv-cpu": ["--target=spirv-cpu", "--emit=mlir"],
    "cuda": ["--target=cuda", "--emit=ptx"],
}


def programs_of(row):
    return [Program(row, s) for s in row.signatures]


def check_row(row, target, env, workdir):
    """(passed, report lines) of `row` on `target`."""
    status = row.status[target]
    programs = programs_of(row)
    text = module_text(programs, env.params(target))
    src = os.path.join(workdir, "%s.%s.mlir" % (row.op, target))
    with open(src, "w") as f:
        f.write(text)
    if not status.runs:
        out = os.path.join(workdir, "out-" + target)
        rc, so, se = run([env.tools.path("kiln-compile"), src, "-o", out] +
                         COMPILE[target])
        if rc == 0:
            return False, ["%s on %s: the table says refused (%s), but it "
                           "compiled" % (row.op, target, status.how)]
        if not re.search(status.match, se):
            return False, ["%s on %s: refused, but not with the reason the "
                           "table names (/%s/):" % (row.op, target,
                                                    status.match), se.strip()]
        return True, ["%s on %s: refused as the table says" % (row.op, target)]
    if not env.runnable(target):
        if target != "cuda":
            return True, ["%s on %s: no device; not run" % (row.op, target)]
        out = os.path.join(workdir, "out-" + target)
        rc, so, se = run([env.tools.path("kiln-compile"), src, "-o", out] +
                         COMPILE[target])
        if rc != 0:
            return False, ["%s on cuda: does not compile to PTX:" % row.op,
                           se.strip()]
        return True, ["%s on cuda: compiled to PTX; no device to run it" %
                      row.op]
    rc, so, se = run([env.tools.path(RUNNERS[target]), src] +
                     runner_args(target), timeout=300)
    if rc != 0:
        return False, ["%s on %s: the run failed (exit %d):" % (
            row.op, target, rc), se.strip()[-3000:]]
    return judge(row, target, programs, so, se)


def judge(row, target, programs, stdout, stderr=""):
    parts = split_outputs(stdout, len(programs))
    msgs = []
    for p, arrays in zip(programs, parts):
        msgs += compare_program(p, target, arrays)
    if msgs:
        return False, ["%s on %s differs from the host:" % (row.op, target)] + msgs
    cases = sum(p.n for p in programs)
    return True, ["%s on %s: %d cases agree with the host" % (row.op, target,
                                                            cases)]


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def load_table():
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import optable
    return optable.ROWS


def find_row(rows, name):
    for r in rows:
        if r.name == name:
            return r
    for r in rows:
        if r.op == name:
            return r
    raise SystemExit("opcheck: no row '%s' (see --list)" % name)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tools", help="folder of Kiln's tools")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--run", metavar="ROW")
    ap.add_argument("--emit", metavar="ROW")
    ap.add_argument("--target", choices=TARGETS)
    ap.add_argument("--write-docs", metavar="FILE")
    ap.add_argument("--check-docs", metavar="FILE")
    ap.add_argument("--random", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=30.0)
    ap.add_argument("--kit", metavar="DIR")
    ap.add_argument("--check-kit", metavar="DIR")
    ap.add_argument("--keep", metavar="DIR", help="keep generated files here")
    args = ap.parse_args(argv)
    rows = load_table()
    env = Env(Tools(args.tools))
    if args.list:
        for r in rows:
            print("%-36s %s" % (r.name, " | ".join(
                "%s: %s" % (t, r.status[t].kind) for t in TARGETS)))
        return 0
    if args.emit:
        print(module_text(programs_of(find_row(rows, args.emit))), end="")
        return 0
    if args.write_docs or args.check_docs:
        import opdocs
        text = opdocs.render(rows)
        if args.write_docs:
            with open(args.write_docs, "w") as f:
                f.write(text)
            return 0
        with open(args.check_docs) as f:
            if f.read() != text:
                print("opcheck: %s is not what the table says; write it again "
                      "with: python3 test/Ops/opcheck.py --write-docs %s" %
                      (args.check_docs, args.check_docs))
                return 1
        return 0
    if args.run:
        row = find_row(rows, args.run)
        ok = True
        work = args.keep or tempfile.mkdtemp(prefix="opcheck.")
        os.makedirs(work, exist_ok=True)
        for t in ([args.target] if args.target else TARGETS):
            passed, lines = check_row(row, t, env, work)
            print("\n".join(lines))
            ok &= passed
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return 0 if ok else 1
    if args.random:
        import oprandom
        return oprandom.main(rows, env, args)
    if args.kit or args.check_kit:
        import opkit
        return opkit.main(rows, env, args)
    ap.print_usage()
    return 2


if __name__ == "__main__":
    sys.exit(main())
