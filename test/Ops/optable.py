"""The op coverage table: one row per op a kernel may hold (opcheck.py).

Each row names the op, how to apply it (an MLIR template over operands {a},
{b}, {c} of types {T0}.. and results {r} / {r0}, {r1} of types {R0}..), the
signatures it is tested with, which inputs are valid (undefined behaviour
is left out), how closely a target must agree with the host, and per target
whether Kiln lowers it, expands it first or refuses it.

Tolerances on Vulkan follow Vulkan's precision requirements for SPIR-V
instructions (the Vulkan specification's appendix "Precision and Operation
of SPIR-V Instructions"), so that a row holds on every conformant driver,
not only on lavapipe; on the CPU runtime and CUDA the same unless a row
says otherwise.
"""

import math

from opcheck import (Row, Tolerance, EXACT, sig, same, lowered, kiln,
                     expanded, refused, float_range, edges, Type, from_float)

INTS = ["i32", "i64", "i16", "i8"]
FLOATS = ["f32", "f16", "f64"]
MINS = {-(2 ** 7), -(2 ** 15), -(2 ** 31), -(2 ** 63)}


def divisible(v, t):
    """Signed division and remainder are undefined by zero and for the
    minimum integer by -1 (the quotient overflows)."""
    a, b = v
    return b != 0 and not (b == -1 and a == -(2 ** (t[0].width - 1)))


def nonzero_divisor(v, t):
    return v[1] != 0


def shift_in_range(v, t):
    """A shift by the width or more is poison."""
    return 0 <= v[1] % (2 ** t[0].width) < t[0].width


def binop(op, types, **kw):
    return Row(op, template="{r} = %s {a}, {b} : {T}" % op,
               signatures=same(types, 2), **kw)


def unop(op, types, **kw):
    return Row(op, template="{r} = %s {a} : {T}" % op,
               signatures=same(types, 1), **kw)


def cast(op, pairs, **kw):
    return Row(op, template="{r} = %s {a} : {T0} to {R}" % op,
               signatures=[sig([a], [b]) for a, b in pairs], **kw)


# Vulkan's precision requirements (see the module's doc).
ULP_2_5 = Tolerance(ulp=3, note="2.5 ULP")


def vulkan_div(v, t):
    """Vulkan bounds OpFDiv only for divisors in [2^-126, 2^126] (f32)."""
    b = abs(v[1])
    lo, hi = {16: (2.0 ** -14, 2.0 ** 14), 32: (2.0 ** -126, 2.0 ** 126),
              64: (2.0 ** -1022, 2.0 ** 1022)}[t[1].width if t else 32], None
    return not (2.0 ** -126 <= b <= 2.0 ** 126)


def exp_tol():
    """exp and exp2: 3 + 2|x| ULP on Vulkan."""
    return Tolerance(ulp_of=lambda x: 3 + 2 * abs(x), note="3 + 2|x| ULP")


LOG_TOL = Tolerance(ulp=3, abs_err=2.0 ** -21, note="3 ULP, 2^-21 in [0.5, 2]")
TRIG_TOL = Tolerance(abs_err=2.0 ** -11, note="2^-11 in [-pi, pi]")
INV_TRIG_TOL = Tolerance(ulp=4096, abs_err=1e-6, note="4096 ULP")
HYP_TOL = Tolerance(rel=1e-5, abs_err=1e-6, note="inherited from exp")
LOOSE = Tolerance(rel=1e-5, abs_err=1e-6, note="rel 1e-5")


def finite_inputs(lo, hi, n=24, extra=()):
    """Inputs spread over [lo, hi] plus zeros, infinities and a NaN."""
    def make(operands):
        per = []
        for t in operands:
            s = t.scalar
            vals = float_range(s, lo, hi, n) + [from_float(s, x) for x in extra]
            vals += [from_float(s, x) for x in (math.inf, -math.inf, math.nan)]
            per.append(vals)
        return per
    return make


def pairs_inputs(values):
    """Every pair of `values` (floats) for a binary float op."""
    def make(operands):
        return [[from_float(t.scalar, x) for x in values] for t in operands]
    return make


ARITH = [
    # Floating-point arithmetic: correctly rounded on every target.
    binop("arith.addf", FLOATS + ["vector<4xf32>"]),
    binop("arith.subf", FLOATS + ["vector<4xf32>"]),
    binop("arith.mulf", FLOATS + ["vector<4xf32>"]),
    binop("arith.divf", FLOATS + ["vector<4xf32>"],
          vulkan_tol=Tolerance(ulp=3, note="2.5 ULP for |b| in [2^-126, 2^126]",
                               any_value_where=lambda a, b: not (
                                   2.0 ** -126 <= abs(b) <= 2.0 ** 126))),
    Row("arith.remf", template="{r} = arith.remf {a}, {b} : {T}",
        signatures=same(["f32", "f64"], 2),
        inputs=pairs_inputs([0.0, -0.0, 1.0, -1.0, 2.5, -7.25, 100.0, 0.3,
                             math.inf, math.nan]),
        vulkan_tol=Tolerance(abs_of=lambda a, b: 4 * abs(a) * 2.0 ** -23,
                             note="inherited from x - y * trunc(x / y): "
                                  "4 ULP of x")),
    binop("arith.maximumf", FLOATS + ["vector<4xf32>"]),
    binop("arith.minimumf", FLOATS + ["vector<4xf32>"]),
    binop("arith.maxnumf", FLOATS + ["vector<4xf32>"],
          tol=Tolerance(signed_zero=False, note="either zero of +0, -0"),
          vulkan=kiln("GLSL's FMax with the other operand where one is NaN")),
    binop("arith.minnumf", FLOATS + ["vector<4xf32>"],
          tol=Tolerance(signed_zero=False, note="either zero of +0, -0"),
          vulkan=kiln("GLSL's FMin with the other operand where one is NaN")),
    unop("arith.negf", FLOATS + ["vector<4xf32>"]),
    # Integer arithmetic.
    binop("arith.addi", INTS + ["vector<4xi32>"]),
    binop("arith.subi", INTS + ["vector<4xi32>"]),
    binop("arith.muli", INTS + ["vector<4xi32>"]),
    binop("arith.divsi", INTS + ["vector<4xi32>"], valid=divisible),
    binop("arith.divui", INTS + ["vector<4xi32>"], valid=nonzero_divisor),
    binop("arith.remsi", INTS + ["vector<4xi32>"], valid=divisible,
          vulkan=kiln("sign from the dividend; MLIR 22's pattern takes "
                      "INT_MIN for its own absolute value")),
    binop("arith.remui", INTS + ["vector<4xi32>"], valid=nonzero_divisor),
    binop("arith.ceildivsi", INTS, valid=divisible,
          vulkan=expanded("arith-expand")),
    binop("arith.ceildivui", INTS, valid=nonzero_divisor,
          vulkan=expanded("arith-expand")),
    binop("arith.floordivsi", INTS, valid=divisible,
          vulkan=expanded("arith-expand")),
    binop("arith.andi", INTS + ["i1", "vector<4xi32>"]),
    binop("arith.ori", INTS + ["i1", "vector<4xi32>"]),
    binop("arith.xori", INTS + ["i1", "vector<4xi32>"]),
    binop("arith.shli", INTS + ["vector<4xi32>"], valid=shift_in_range),
    binop("arith.shrsi", INTS + ["vector<4xi32>"], valid=shift_in_range),
    binop("arith.shrui", INTS + ["vector<4xi32>"], valid=shift_in_range),
    binop("arith.maxsi", INTS + ["vector<4xi32>"]),
    binop("arith.maxui", INTS + ["vector<4xi32>"]),
    binop("arith.minsi", INTS + ["vector<4xi32>"]),
    binop("arith.minui", INTS + ["vector<4xi32>"]),
    Row("arith.addui_extended",
        template="{r0}, {r1} = arith.addui_extended {a}, {b} : {T}, i1",
        signatures=[sig([t, t], [t, "i1"]) for t in ["i32", "i64", "i16"]]),
    Row("arith.mulsi_extended",
        template="{r0}, {r1} = arith.mulsi_extended {a}, {b} : {T}",
        signatures=[sig([t, t], [t, t]) for t in ["i32", "i64"]]),
    Row("arith.mului_extended",
        template="{r0}, {r1} = arith.mului_extended {a}, {b} : {T}",
        signatures=[sig([t, t], [t, t]) for t in ["i32", "i64"]]),
    # Every predicate of one comparison, as the bits of one i32.
    Row("arith.cmpi", template="\n".join(
        ["%{p}z = arith.constant 0 : i32"] +
        ["%%{p}c%d = arith.cmpi %s, {a}, {b} : {T}\n"
         "%%{p}e%d = arith.extui %%{p}c%d : i1 to i32\n"
         "%%{p}k%d = arith.constant %d : i32\n"
         "%%{p}s%d = arith.shli %%{p}e%d, %%{p}k%d : i32" % (
             i, p, i, i, i, i, i, i, i) for i, p in enumerate(
                 ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                  "ugt", "uge"])] +
        ["%%{p}o%d = arith.ori %%{p}%s, %%{p}s%d : i32" % (
            i, "z" if i == 0 else "o%d" % (i - 1), i) for i in range(10)] +
        ["{r} = arith.addi %{p}o9, %{p}z : i32"]).replace("{p}", "{g}x"),
        signatures=[sig([t, t], ["i32"]) for t in INTS + ["i1", "index"]],
        note="all ten predicates, as the bits of one i32"),
    Row("arith.cmpf", template="\n".join(
        ["%{p}z = arith.constant 0 : i32"] +
        ["%%{p}c%d = arith.cmpf %s, {a}, {b} : {T}\n"
         "%%{p}e%d = arith.extui %%{p}c%d : i1 to i32\n"
         "%%{p}k%d = arith.constant %d : i32\n"
         "%%{p}s%d = arith.shli %%{p}e%d, %%{p}k%d : i32" % (
             i, p, i, i, i, i, i, i, i) for i, p in enumerate(
                 ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                  "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"])] +
        ["%%{p}o%d = arith.ori %%{p}%s, %%{p}s%d : i32" % (
            i, "z" if i == 0 else "o%d" % (i - 1), i) for i in range(16)] +
        ["{r} = arith.addi %{p}o15, %{p}z : i32"]).replace("{p}", "{g}x"),
        signatures=[sig([t, t], ["i32"]) for t in FLOATS],
        note="all sixteen predicates, as the bits of one i32"),
    Row("arith.constant", template="\n".join([
        "%{g}k0 = arith.constant -2147483648 : i32",
        "%{g}k1 = arith.constant 0x7FC00000 : f32",
        "%{g}k2 = arith.constant -0.0 : f32",
        "%{g}k3 = arith.constant 0xFF800000 : f32",
        "%{g}k4 = arith.constant 1.0e-40 : f32",
        "%{g}k5 = arith.constant -9223372036854775807 : i64",
        "%{g}k6 = arith.constant 0x7FF0000000000000 : f64",
        "%{g}k7 = arith.constant 65504.0 : f16",
        "%{g}b0 = arith.bitcast %{g}k1 : f32 to i32",
        "%{g}b1 = arith.bitcast %{g}k2 : f32 to i32",
        "%{g}b2 = arith.bitcast %{g}k3 : f32 to i32",
        "%{g}b3 = arith.bitcast %{g}k4 : f32 to i32",
        "%{g}b4 = arith.trunci %{g}k5 : i64 to i32",
        "%{g}b5 = arith.bitcast %{g}k6 : f64 to i64",
        "%{g}b6 = arith.trunci %{g}b5 : i64 to i32",
        "%{g}h = arith.bitcast %{g}k7 : f16 to i16",
        "%{g}b7 = arith.extui %{g}h : i16 to i32",
        "%{g}s0 = arith.addi %{g}k0, %{g}b0 : i32",
        "%{g}s1 = arith.xori %{g}s0, %{g}b1 : i32",
        "%{g}s2 = arith.xori %{g}s1, %{g}b2 : i32",
        "%{g}s3 = arith.addi %{g}s2, %{g}b3 : i32",
        "%{g}s4 = arith.xori %{g}s3, %{g}b4 : i32",
        "%{g}s5 = arith.addi %{g}s4, %{g}b6 : i32",
        "%{g}s6 = arith.xori %{g}s5, %{g}b7 : i32",
        "{r} = arith.xori %{g}s6, {a} : i32"]),
        signatures=[sig(["i32"], ["i32"])],
        note="integer, NaN, -0, infinity, denormal and f16 constants"),
    Row("arith.select", template="{r} = arith.select {a}, {b}, {c} : {T1}",
        signatures=[sig(["i1", t, t], [t]) for t in ["i32", "f32", "i64",
                                                     "f16", "i8"]]),
    Row("arith.bitcast", template="{r} = arith.bitcast {a} : {T0} to {R}",
        signatures=[sig(["f32"], ["i32"]), sig(["i32"], ["f32"]),
                    sig(["f16"], ["i16"]), sig(["i64"], ["f64"]),
                    sig(["vector<4xf32>"], ["vector<4xi32>"])]),
    cast("arith.extf", [("f16", "f32"), ("f32", "f64"), ("f16", "f64")]),
    cast("arith.truncf", [("f32", "f16"), ("f64", "f32"), ("f64", "f16")]),
    cast("arith.extsi", [("i8", "i32"), ("i16", "i32"), ("i32", "i64"),
                         ("i1", "i32"), ("i8", "i64")]),
    cast("arith.extui", [("i8", "i32"), ("i16", "i32"), ("i32", "i64"),
                         ("i1", "i32"), ("i8", "i64")]),
    cast("arith.trunci", [("i32", "i8"), ("i32", "i16"), ("i64", "i32"),
                          ("i32", "i1"), ("i64", "i8")]),
    cast("arith.fptosi", [("f32", "i32"), ("f32", "i64"), ("f64", "i32"),
                          ("f16", "i16"), ("f32", "i8")],
         valid=lambda v, t: v[0] == v[0] and abs(v[0]) < 100.0,
         note="inputs whose integer part fits (others are poison)"),
    cast("arith.fptoui", [("f32", "i32"), ("f32", "i64"), ("f64", "i32"),
                          ("f16", "i16"), ("f32", "i8")],
         valid=lambda v, t: v[0] == v[0] and -1.0 < v[0] < 100.0,
         note="inputs whose integer part fits (others are poison)"),
    cast("arith.sitofp", [("i32", "f32"), ("i64", "f32"), ("i32", "f64"),
                          ("i64", "f64"), ("i16", "f16"), ("i8", "f32")]),
    cast("arith.uitofp", [("i32", "f32"), ("i64", "f32"), ("i32", "f64"),
                          ("i64", "f64"), ("i16", "f16"), ("i8", "f32")]),
    cast("arith.index_cast", [("i32", "index"), ("index", "i32"),
                              ("i64", "index"), ("index", "i64"),
                              ("i8", "index")],
         valid=lambda v, t: -2 ** 31 <= v[0] < 2 ** 31,
         note="values of 32 bits: index is 32 bits wide in Vulkan kernels "
              "unless use-64bit-index"),
    cast("arith.index_castui", [("i32", "index"), ("index", "i32"),
                                ("i64", "index"), ("i8", "index")],
         valid=lambda v, t: 0 <= v[0] < 2 ** 31,
         note="values of 31 bits: index is 32 bits wide in Vulkan kernels "
              "unless use-64bit-index"),
    Row("arith.scaling_extf",
        template="%{g}s = arith.bitcast {b} : i8 to f8E8M0FNU\n"
                 "{r} = arith.scaling_extf {a}, %{g}s : f16, f8E8M0FNU to f32",
        signatures=[sig(["f16", "i8"], ["f32"])],
        inputs=lambda ops: [[from_float(Type("f16"), x) for x in
                             (0.0, 1.0, -2.5, 0.5, math.inf)],
                            [127, 128, 120, 130, 255]],
        vulkan=expanded("arith-expand"), cuda=expanded("arith-expand"),
        note="the scale's bits from an i8"),
    Row("arith.scaling_truncf",
        template="%{g}s = arith.bitcast {b} : i8 to f8E8M0FNU\n"
                 "{r} = arith.scaling_truncf {a}, %{g}s : f32, f8E8M0FNU to f16",
        signatures=[sig(["f32", "i8"], ["f16"])],
        inputs=lambda ops: [[from_float(Type("f32"), x) for x in
                             (0.0, 1.0, -2.5, 0.5, 1e6, math.inf)],
                            [127, 128, 120, 130]],
        vulkan=expanded("arith-expand"), cuda=expanded("arith-expand"),
        note="the scale's bits from an i8"),
]


def math_unop(op, tol=EXACT, inputs=None, types=("f32", "vector<4xf32>"),
              **kw):
    return Row(op, template="{r} = %s {a} : {T}" % op,
               signatures=same(list(types), 1), tol=tol, inputs=inputs, **kw)


MATH = [
    math_unop("math.absf", types=FLOATS + ["vector<4xf32>"]),
    math_unop("math.ceil", types=FLOATS + ["vector<4xf32>"]),
    math_unop("math.floor", types=FLOATS + ["vector<4xf32>"]),
    math_unop("math.trunc", types=FLOATS + ["vector<4xf32>"]),
    math_unop("math.round", types=FLOATS + ["vector<4xf32>"]),
    math_unop("math.roundeven", types=FLOATS + ["vector<4xf32>"]),
    math_unop("math.sqrt", types=("f32", "f16", "vector<4xf32>"),
              tol=Tolerance(ulp=3, note="inherited from 1 / inversesqrt")),
    math_unop("math.rsqrt", tol=Tolerance(ulp=2, note="2 ULP")),
    math_unop("math.exp", tol=exp_tol(),
              inputs=finite_inputs(-80.0, 80.0)),
    math_unop("math.exp2", tol=exp_tol(),
              inputs=finite_inputs(-120.0, 120.0)),
    math_unop("math.expm1", tol=LOOSE, inputs=finite_inputs(-20.0, 20.0,
                                                            extra=(1e-3, -1e-4))),
    math_unop("math.log", tol=LOG_TOL,
              inputs=finite_inputs(-1.0, 1000.0, extra=(0.5, 2.0, 1e-30))),
    math_unop("math.log2", tol=LOG_TOL,
              inputs=finite_inputs(-1.0, 1000.0, extra=(0.5, 2.0, 1e-30))),
    math_unop("math.log10", tol=LOG_TOL,
              inputs=finite_inputs(-1.0, 1000.0, extra=(0.5, 2.0, 1e-30))),
    math_unop("math.log1p", tol=LOOSE,
              inputs=finite_inputs(-0.99, 100.0, extra=(-1.0, 1e-4))),
    math_unop("math.sin", tol=TRIG_TOL, inputs=finite_inputs(-3.14, 3.14)),
    math_unop("math.cos", tol=TRIG_TOL, inputs=finite_inputs(-3.14, 3.14)),
    math_unop("math.tan", tol=Tolerance(rel=1e-3, abs_err=2.0 ** -10,
                                        note="inherited from sin / cos"),
              inputs=finite_inputs(-1.4, 1.4)),
    math_unop("math.asin", tol=INV_TRIG_TOL, inputs=finite_inputs(-1.0, 1.0)),
    math_unop("math.acos", tol=INV_TRIG_TOL, inputs=finite_inputs(-1.0, 1.0)),
    math_unop("math.atan", tol=INV_TRIG_TOL, inputs=finite_inputs(-50.0, 50.0)),
    math_unop("math.sinh", tol=HYP_TOL, inputs=finite_inputs(-10.0, 10.0)),
    math_unop("math.cosh", tol=HYP_TOL, inputs=finite_inputs(-10.0, 10.0)),
    math_unop("math.tanh", tol=HYP_TOL, inputs=finite_inputs(-10.0, 10.0)),
    math_unop("math.asinh", tol=HYP_TOL, inputs=finite_inputs(-50.0, 50.0)),
    math_unop("math.acosh", tol=HYP_TOL, inputs=finite_inputs(1.0, 50.0)),
    math_unop("math.atanh", tol=HYP_TOL, inputs=finite_inputs(-0.99, 0.99)),
    math_unop("math.erf", tol=Tolerance(abs_err=2e-6, note="abs 2e-6"),
              inputs=finite_inputs(-5.0, 5.0)),
    math_unop("math.erfc", tol=Tolerance(rel=1e-4, abs_err=1e-6,
                                         note="rel 1e-4"),
              inputs=finite_inputs(-5.0, 9.0)),
    math_unop("math.cbrt", tol=LOOSE, inputs=finite_inputs(-1000.0, 1000.0)),
    Row("math.atan2", template="{r} = math.atan2 {a}, {b} : {T}",
        signatures=same(["f32"], 2), tol=INV_TRIG_TOL,
        inputs=pairs_inputs([0.0, -0.0, 1.0, -1.0, 3.0, -0.5, 100.0,
                             math.inf, -math.inf])),
    binop("math.copysign", FLOATS + ["vector<4xf32>"]),
    Row("math.powf", template="{r} = math.powf {a}, {b} : {T}",
        signatures=same(["f32"], 2),
        inputs=pairs_inputs([0.0, 1.0, 2.0, 0.5, 3.0, 10.0, -2.0, -0.5]),
        tol=Tolerance(rel=1e-5, note="inherited from exp2(y log2 x)")),
    Row("math.fpowi", template="{r} = math.fpowi {a}, {b} : {T0}, {T1}",
        signatures=[sig(["f32", "i32"], ["f32"])],
        inputs=lambda ops: [[from_float(Type("f32"), x) for x in
                             (0.0, 1.0, -2.0, 0.5, 3.0, -1.5, math.inf)],
                            [0, 1, 2, 3, 7, -1, -2, 2 ** 32 - 5]],
        tol=Tolerance(rel=1e-6)),
    Row("math.ipowi", template="{r} = math.ipowi {a}, {b} : {T}",
        signatures=same(["i32", "i64"], 2),
        inputs=lambda ops: [[x % (2 ** t.width) for x in
                             (0, 1, -1, 2, 3, -3, 7)] for t in ops]),
    Row("math.fma", template="{r} = math.fma {a}, {b}, {c} : {T}",
        signatures=same(["f32", "f64", "vector<4xf32>"], 3),
        vulkan_tol=Tolerance(
            ulp=1, any_value_where=lambda a, b, c: abs(a * b) > 3.4e38,
            note="inherited from OpFMul and OpFAdd: two roundings, so a "
                 "product that overflows may give NaN")),
    Row("math.clampf", template="{r} = math.clampf {a} to [{b}, {c}] : {T}",
        signatures=same(["f32", "f16"], 3),
        valid=lambda v, t: not (v[1] > v[2])),
    Row("math.isnan",
        template="%{g}c = math.isnan {a} : {T}\n{r} = arith.extui %{g}c : i1 to i32",
        signatures=[sig([t], ["i32"]) for t in FLOATS]),
    Row("math.isinf",
        template="%{g}c = math.isinf {a} : {T}\n{r} = arith.extui %{g}c : i1 to i32",
        signatures=[sig([t], ["i32"]) for t in FLOATS]),
    Row("math.isfinite",
        template="%{g}c = math.isfinite {a} : {T}\n{r} = arith.extui %{g}c : i1 to i32",
        signatures=[sig([t], ["i32"]) for t in FLOATS]),
    Row("math.isnormal",
        template="%{g}c = math.isnormal {a} : {T}\n{r} = arith.extui %{g}c : i1 to i32",
        signatures=[sig([t], ["i32"]) for t in FLOATS]),
    Row("math.sincos",
        template="{r0}, {r1} = math.sincos {a} : {T}",
        signatures=[sig(["f32"], ["f32", "f32"])], tol=TRIG_TOL,
        inputs=finite_inputs(-3.14, 3.14)),
    unop("math.absi", INTS + ["vector<4xi32>"]),
    unop("math.ctlz", INTS + ["vector<4xi32>"]),
    unop("math.cttz", INTS + ["vector<4xi32>"]),
    unop("math.ctpop", INTS + ["vector<4xi32>"]),
]


def index_binop(op, valid=None, **kw):
    return Row(op, template="{r} = %s {a}, {b}" % op,
               signatures=[sig(["index", "index"], ["index"])],
               inputs=lambda ops: [[x % 2 ** 64 for x in
                                    (0, 1, 3, 7, -1, -7, 2 ** 31 - 1, -2 ** 31,
                                     -2 ** 31 + 1, 100)]] * 2,
               valid=valid, **kw)


def index_valid_32(v, t):
    return all(-2 ** 31 <= x < 2 ** 31 for x in v)


INDEX_NOTE = ("index operands of 32 bits: index is 32 bits wide in Vulkan "
              "kernels unless use-64bit-index")

def fits32(x):
    return -2 ** 31 <= x < 2 ** 31


INDEX = [
    index_binop("index.add", note=INDEX_NOTE,
                valid=lambda v, t: fits32(v[0] + v[1])),
    index_binop("index.sub", note=INDEX_NOTE,
                valid=lambda v, t: fits32(v[0] - v[1])),
    index_binop("index.mul", note=INDEX_NOTE,
                valid=lambda v, t: fits32(v[0] * v[1])),
    index_binop("index.divs", valid=lambda v, t: v[1] != 0 and not (
        v[1] == -1 and v[0] == -2 ** 31)),
    index_binop("index.divu", valid=lambda v, t: v[1] != 0 and v[0] >= 0 and
                v[1] > 0),
    index_binop("index.rems", valid=lambda v, t: v[1] != 0 and not (
        v[1] == -1 and v[0] == -2 ** 31),
        vulkan=kiln("OpSRem with its sign fixed: Vulkan leaves it undefined "
                    "for negative operands")),
    index_binop("index.remu", valid=lambda v, t: v[1] > 0 and v[0] >= 0),
    index_binop("index.ceildivs", valid=lambda v, t: v[1] != 0 and not (
        v[1] == -1 and v[0] == -2 ** 31),
        vulkan=kiln("MLIR 22's pattern negates the wrong operand")),
    index_binop("index.ceildivu", valid=lambda v, t: v[1] > 0 and v[0] >= 0),
    index_binop("index.floordivs", valid=lambda v, t: v[1] != 0 and not (
        v[1] == -1 and v[0] == -2 ** 31),
        vulkan=kiln("MLIR 22's pattern swaps its select operands")),
    index_binop("index.maxs"),
    index_binop("index.maxu", valid=lambda v, t: v[0] >= 0 and v[1] >= 0),
    index_binop("index.mins"),
    index_binop("index.minu", valid=lambda v, t: v[0] >= 0 and v[1] >= 0),
    index_binop("index.shl", valid=lambda v, t: 0 <= v[1] < 32 and
                fits32(v[0] << v[1])),
    index_binop("index.shrs", valid=lambda v, t: 0 <= v[1] < 32),
    index_binop("index.shru", valid=lambda v, t: 0 <= v[1] < 32 and
                v[0] >= 0),
    index_binop("index.and"),
    index_binop("index.or"),
    index_binop("index.xor"),
    Row("index.cmp", template="\n".join(
        ["%{g}z = arith.constant 0 : i32"] +
        ["%%{g}c%d = index.cmp %s({a}, {b})\n"
         "%%{g}e%d = arith.extui %%{g}c%d : i1 to i32\n"
         "%%{g}k%d = arith.constant %d : i32\n"
         "%%{g}s%d = arith.shli %%{g}e%d, %%{g}k%d : i32" % (
             i, p, i, i, i, i, i, i, i) for i, p in enumerate(
                 ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                  "ugt", "uge"])] +
        ["%%{g}o%d = arith.ori %%{g}%s, %%{g}s%d : i32" % (
            i, "z" if i == 0 else "o%d" % (i - 1), i) for i in range(10)] +
        ["{r} = arith.addi %{g}o9, %{g}z : i32"]),
        signatures=[sig(["index", "index"], ["i32"])],
        inputs=lambda ops: [[x % 2 ** 64 for x in
                             (0, 1, -1, 7, -2 ** 31, 2 ** 31 - 1)]] * 2,
        valid=lambda v, t: v[0] >= 0 and v[1] >= 0 or v[0] < 0 and v[1] < 0,
        note="all ten predicates; unsigned ones on operands of one sign "
             "(32-bit index on Vulkan)"),
    Row("index.constant",
        template="%{g}k = index.constant 42\n{r} = index.add {a}, %{g}k",
        signatures=[sig(["index"], ["index"])],
        inputs=lambda ops: [[0, 1, 2 ** 64 - 1, 1000]]),
    Row("index.bool.constant",
        template="%{g}t = index.bool.constant true\n"
                 "%{g}f = index.bool.constant false\n"
                 "%{g}x = arith.xori %{g}t, {a} : i1\n"
                 "{r} = arith.ori %{g}x, %{g}f : i1",
        signatures=[sig(["i1"], ["i1"])]),
    Row("index.casts", template="{r} = index.casts {a} : {T0} to {R}",
        signatures=[sig(["i32"], ["index"]), sig(["index"], ["i32"]),
                    sig(["i16"], ["index"])],
        valid=lambda v, t: -2 ** 31 <= v[0] < 2 ** 31, note=INDEX_NOTE),
    Row("index.castu", template="{r} = index.castu {a} : {T0} to {R}",
        signatures=[sig(["i32"], ["index"]), sig(["index"], ["i32"]),
                    sig(["i16"], ["index"])],
        valid=lambda v, t: 0 <= v[0] < 2 ** 31, note=INDEX_NOTE),
    Row("index.sizeof",
        template="%{g}s = index.sizeof\n{r} = index.add {a}, %{g}s",
        host_template="%{g}s = index.constant {IW}\n{r} = index.add {a}, %{g}s",
        signatures=[sig(["index"], ["index"])],
        inputs=lambda ops: [[0, 5]],
        note="the index width: 32 on Vulkan, 64 on CUDA and the host"),
]


def complex_unop(op, tol=LOOSE, inputs=None, **kw):
    return Row(op, template="%{g}z = complex.create {a}, {b} : complex<f32>\n"
               "%{g}w = " + op + " %{g}z : complex<f32>\n"
               "{r0} = complex.re %{g}w : complex<f32>\n"
               "{r1} = complex.im %{g}w : complex<f32>",
               signatures=[sig(["f32", "f32"], ["f32", "f32"])], tol=tol,
               inputs=inputs or pairs_inputs([0.0, 1.0, -1.5, 0.5, 2.0, -3.0]),
               vulkan=expanded("convert-complex-to-standard"),
               cuda=expanded("convert-complex-to-standard"), **kw)


def complex_binop(op, tol=LOOSE, **kw):
    return Row(op, template="%{g}x = complex.create {a}, {b} : complex<f32>\n"
               "%{g}y = complex.create {c}, {a} : complex<f32>\n"
               "%{g}w = " + op + " %{g}x, %{g}y : complex<f32>\n"
               "{r0} = complex.re %{g}w : complex<f32>\n"
               "{r1} = complex.im %{g}w : complex<f32>",
               signatures=[sig(["f32", "f32", "f32"], ["f32", "f32"])],
               tol=tol,
               inputs=pairs_inputs([1.0, -1.5, 0.5, 2.0, -3.0]),
               vulkan=expanded("convert-complex-to-standard"),
               cuda=expanded("convert-complex-to-standard"), **kw)


def complex_real(op, tol=LOOSE, result="f32", **kw):
    return Row(op, template="%{g}z = complex.create {a}, {b} : complex<f32>\n"
               "{r} = " + op + " %{g}z : complex<f32>",
               signatures=[sig(["f32", "f32"], [result])], tol=tol,
               inputs=pairs_inputs([0.0, 1.0, -1.5, 0.5, 2.0, -3.0]),
               vulkan=expanded("convert-complex-to-standard"),
               cuda=expanded("convert-complex-to-standard"), **kw)


COMPLEX = [
    complex_binop("complex.add", tol=EXACT),
    complex_binop("complex.sub", tol=EXACT),
    complex_binop("complex.mul"),
    complex_binop("complex.div"),
    complex_binop("complex.pow", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_binop("complex.atan2", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_unop("complex.neg", tol=EXACT),
    complex_unop("complex.conj", tol=EXACT),
    complex_unop("complex.exp"),
    complex_unop("complex.expm1", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_unop("complex.log"),
    complex_unop("complex.log1p", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_unop("complex.sqrt"),
    complex_unop("complex.rsqrt", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_unop("complex.sin"),
    complex_unop("complex.cos"),
    complex_unop("complex.tan", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_unop("complex.tanh", tol=Tolerance(rel=1e-4, abs_err=1e-5)),
    complex_unop("complex.sign"),
    complex_real("complex.abs"),
    complex_real("complex.angle", tol=INV_TRIG_TOL),
    complex_real("complex.re", tol=EXACT),
    complex_real("complex.im", tol=EXACT),
    Row("complex.eq",
        template="%{g}x = complex.create {a}, {b} : complex<f32>\n"
                 "%{g}y = complex.create {b}, {a} : complex<f32>\n"
                 "%{g}e = complex.eq %{g}x, %{g}y : complex<f32>\n"
                 "{r} = arith.extui %{g}e : i1 to i32",
        signatures=[sig(["f32", "f32"], ["i32"])],
        vulkan=expanded("convert-complex-to-standard"),
        cuda=expanded("convert-complex-to-standard")),
    Row("complex.neq",
        template="%{g}x = complex.create {a}, {b} : complex<f32>\n"
                 "%{g}y = complex.create {b}, {a} : complex<f32>\n"
                 "%{g}e = complex.neq %{g}x, %{g}y : complex<f32>\n"
                 "{r} = arith.extui %{g}e : i1 to i32",
        signatures=[sig(["f32", "f32"], ["i32"])],
        vulkan=expanded("convert-complex-to-standard"),
        cuda=expanded("convert-complex-to-standard")),
    Row("complex.create", template="%{g}z = complex.create {a}, {b} : complex<f32>\n"
        "{r0} = complex.re %{g}z : complex<f32>\n"
        "{r1} = complex.im %{g}z : complex<f32>",
        signatures=[sig(["f32", "f32"], ["f32", "f32"])],
        vulkan=expanded("convert-complex-to-standard"),
        cuda=expanded("convert-complex-to-standard")),
    Row("complex.constant",
        template="%{g}k = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>\n"
                 "%{g}z = complex.create {a}, {a} : complex<f32>\n"
                 "%{g}w = complex.add %{g}z, %{g}k : complex<f32>\n"
                 "{r0} = complex.re %{g}w : complex<f32>\n"
                 "{r1} = complex.im %{g}w : complex<f32>",
        signatures=[sig(["f32"], ["f32", "f32"])],
        vulkan=expanded("convert-complex-to-standard"),
        cuda=expanded("convert-complex-to-standard")),
    Row("complex.powi",
        template="%{g}z = complex.create {a}, {b} : complex<f32>\n"
                 "%{g}k = arith.constant 3 : i32\n"
                 "%{g}w = complex.powi %{g}z, %{g}k : complex<f32>, i32\n"
                 "{r0} = complex.re %{g}w : complex<f32>\n"
                 "{r1} = complex.im %{g}w : complex<f32>",
        signatures=[sig(["f32", "f32"], ["f32", "f32"])],
        inputs=pairs_inputs([0.0, 1.0, -1.5, 0.5, 2.0]),
        tol=Tolerance(rel=1e-4, abs_err=1e-5),
        vulkan=expanded("convert-complex-to-standard"),
        cuda=expanded("convert-complex-to-standard")),
    Row("complex.bitcast",
        template="%{g}z = complex.create {a}, {b} : complex<f32>\n"
                 "{r} = complex.bitcast %{g}z : complex<f32> to i64",
        signatures=[sig(["f32", "f32"], ["i64"])],
        vulkan=expanded("convert-complex-to-standard"),
        cuda=expanded("convert-complex-to-standard")),
]


# ---------------------------------------------------------------------------
# vector: n-D vectors are built from the loaded 1-D ones with shape_cast.
# ---------------------------------------------------------------------------

V4F = "vector<4xf32>"
V4I = "vector<4xi32>"
SUM_TOL = Tolerance(rel=1e-6, abs_err=1e-30,
                    note="sums in any order: rel 1e-6")


def reductions(kinds, t):
    lines = []
    for k, kind in enumerate(kinds):
        lines.append("{r%d} = vector.reduction <%s>, {a} : vector<4x%s> into %s"
                     % (k, kind, t, t))
    return "\n".join(lines)


def masked_read(op, passthru):
    """A masked read of four elements of the input at (up to) the case's
    index, `passthru` where the mask is off."""
    return Row(op, template="%{g}m = vector.constant_mask [2] : vector<4xi1>\n"
               "%{g}p = arith.constant dense<" + str(passthru) +
               "> : vector<4xi32>\n"
               "%{g}k = arith.constant {LAST} : index\n"
               "%{g}j = arith.minui {i}, %{g}k : index\n"
               "{r} = " + op + " {A0}[%{g}j], %{g}m, %{g}p : memref<{N}xi32>, "
               "vector<4xi1>, vector<4xi32> into vector<4xi32>",
               signatures=[sig(["i32"], [V4I])])


VECTOR = [
    Row("vector.broadcast",
        template="{r} = vector.broadcast {a} : {T0} to {R}",
        signatures=[sig(["f32"], [V4F]), sig(["i32"], [V4I])]),
    Row("vector.extract",
        template="{r0} = vector.extract {a}[2] : {R0} from {T0}\n"
                 "%{g}k4 = arith.constant 4 : i32\n"
                 "%{g}p = arith.remui {b}, %{g}k4 : i32\n"
                 "%{g}q = arith.index_castui %{g}p : i32 to index\n"
                 "{r1} = vector.extract {a}[%{g}q] : {R0} from {T0}",
        signatures=[sig([V4F, "i32"], ["f32", "f32"]),
                    sig([V4I, "i32"], ["i32", "i32"])],
        note="a constant and a dynamic position"),
    Row("vector.insert",
        template="%{g}v = vector.insert {b}, {a} [1] : {T1} into {T0}\n"
                 "%{g}k4 = arith.constant 4 : i32\n"
                 "%{g}p = arith.remui {c}, %{g}k4 : i32\n"
                 "%{g}q = arith.index_castui %{g}p : i32 to index\n"
                 "{r} = vector.insert {b}, %{g}v [%{g}q] : {T1} into {T0}",
        signatures=[sig([V4F, "f32", "i32"], [V4F]),
                    sig([V4I, "i32", "i32"], [V4I])],
        note="a constant and a dynamic position"),
    Row("vector.extract_strided_slice",
        template="%{g}s = vector.extract_strided_slice {a} {{offsets = [1], "
                 "sizes = [2], strides = [1]}} : {T0} to vector<2x{E}>\n"
                 "%{g}z = arith.constant dense<0> : vector<4x{E}>\n"
                 "{r} = vector.insert_strided_slice %{g}s, %{g}z {{offsets = [2], "
                 "strides = [1]}} : vector<2x{E}> into vector<4x{E}>"
                 .replace("{E}", "i32"),
        signatures=[sig([V4I], [V4I])]),
    Row("vector.insert_strided_slice",
        template="%{g}s = vector.extract_strided_slice {b} {{offsets = [0], "
                 "sizes = [2], strides = [1]}} : {T1} to vector<2xf32>\n"
                 "{r} = vector.insert_strided_slice %{g}s, {a} {{offsets = [1], "
                 "strides = [1]}} : vector<2xf32> into {T0}",
        signatures=[sig([V4F, V4F], [V4F])]),
    Row("vector.shuffle",
        template="{r} = vector.shuffle {a}, {b} [0, 5, 3, 6] : {T0}, {T1}",
        signatures=[sig([V4F, V4F], [V4F]), sig([V4I, V4I], [V4I])]),
    Row("vector.from_elements",
        template="{r} = vector.from_elements {a}, {b}, {c}, {a} : {R}",
        signatures=[sig(["f32", "f32", "f32"], [V4F]),
                    sig(["i32", "i32", "i32"], [V4I])]),
    Row("vector.to_elements",
        template="{r0}, {r1}, {r2}, {r3} = vector.to_elements {a} : {T0}",
        signatures=[sig([V4F], ["f32"] * 4), sig([V4I], ["i32"] * 4)]),
    Row("vector.fma", template="{r} = vector.fma {a}, {b}, {c} : {T}",
        signatures=same([V4F], 3),
        vulkan_tol=Tolerance(
            ulp=1, any_value_where=lambda a, b, c: abs(a * b) > 3.4e38,
            note="inherited from OpFMul and OpFAdd")),
    Row("vector.reduction",
        name="vector.reduction (integer)",
        template=reductions(["add", "mul", "minui", "minsi", "maxui", "maxsi",
                             "and", "or", "xor"], "i32"),
        signatures=[sig([V4I], ["i32"] * 9)],
        note="add, mul, minui, minsi, maxui, maxsi, and, or, xor"),
    Row("vector.reduction",
        name="vector.reduction (float)",
        template=reductions(["add", "mul", "minnumf", "maxnumf", "minimumf",
                             "maximumf"], "f32"),
        signatures=[sig([V4F], ["f32"] * 6)],
        tol=Tolerance(rel=1e-6, signed_zero=False,
                      note="sums in any order; minnumf/maxnumf either zero"),
        note="add, mul, minnumf, maxnumf, minimumf, maximumf"),
    Row("vector.multi_reduction",
        template="%{g}m = vector.shape_cast {a} : vector<4xf32> to vector<2x2xf32>\n"
                 "%{g}z = arith.constant dense<0.0> : vector<2xf32>\n"
                 "%{g}r = vector.multi_reduction <add>, %{g}m, %{g}z [1] : "
                 "vector<2x2xf32> to vector<2xf32>\n"
                 "%{g}y = arith.constant dense<0.0> : vector<4xf32>\n"
                 "{r} = vector.insert_strided_slice %{g}r, %{g}y {{offsets = [0], "
                 "strides = [1]}} : vector<2xf32> into vector<4xf32>",
        signatures=[sig([V4F], [V4F])], tol=SUM_TOL),
    Row("vector.shape_cast",
        template="%{g}m = vector.shape_cast {a} : {T0} to vector<2x2xi32>\n"
                 "%{g}t = vector.transpose %{g}m, [1, 0] : vector<2x2xi32> to vector<2x2xi32>\n"
                 "{r} = vector.shape_cast %{g}t : vector<2x2xi32> to {R}",
        signatures=[sig([V4I], [V4I])],
        note="to 2-D, transposed, back"),
    Row("vector.transpose",
        template="%{g}m = vector.shape_cast {a} : {T0} to vector<2x2xf32>\n"
                 "%{g}t = vector.transpose %{g}m, [1, 0] : vector<2x2xf32> to vector<2x2xf32>\n"
                 "%{g}u = math.absf %{g}t : vector<2x2xf32>\n"
                 "{r} = vector.shape_cast %{g}u : vector<2x2xf32> to {R}",
        signatures=[sig([V4F], [V4F])],
        note="with a 2-D op in between"),
    Row("vector.outerproduct",
        template="%{g}x = vector.extract_strided_slice {a} {{offsets = [0], "
                 "sizes = [2], strides = [1]}} : vector<4xf32> to vector<2xf32>\n"
                 "%{g}y = vector.extract_strided_slice {b} {{offsets = [2], "
                 "sizes = [2], strides = [1]}} : vector<4xf32> to vector<2xf32>\n"
                 "%{g}o = vector.outerproduct %{g}x, %{g}y : vector<2xf32>, vector<2xf32>\n"
                 "{r} = vector.shape_cast %{g}o : vector<2x2xf32> to vector<4xf32>",
        signatures=[sig([V4F, V4F], [V4F])]),
    Row("vector.contract",
        template="%{g}x = vector.shape_cast {a} : vector<4xf32> to vector<2x2xf32>\n"
                 "%{g}y = vector.shape_cast {b} : vector<4xf32> to vector<2x2xf32>\n"
                 "%{g}z = vector.shape_cast {c} : vector<4xf32> to vector<2x2xf32>\n"
                 "%{g}m = vector.contract {{indexing_maps = ["
                 "affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
                 "affine_map<(i, j, k) -> (i, j)>], iterator_types = "
                 "[\"parallel\", \"parallel\", \"reduction\"], kind = "
                 "#vector.kind<add>}} %{g}x, %{g}y, %{g}z : vector<2x2xf32>, "
                 "vector<2x2xf32> into vector<2x2xf32>\n"
                 "{r} = vector.shape_cast %{g}m : vector<2x2xf32> to vector<4xf32>",
        signatures=[sig([V4F, V4F, V4F], [V4F])], tol=SUM_TOL,
        vulkan_tol=Tolerance(
            rel=1e-6, abs_err=1e-30,
            any_value_where=lambda a, b, c: abs(a * b) > 3.4e38,
            note="multiply-adds in two roundings: a product that overflows "
                 "may give NaN"),
        note="a 2x2 matrix product and accumulate"),
    Row("vector.bitcast",
        template="{r} = vector.bitcast {a} : {T0} to {R}",
        signatures=[sig([V4F], [V4I]), sig([V4I], [V4F])]),
    Row("vector.step",
        template="%{g}s = vector.step : vector<4xindex>\n"
                 "%{g}c = arith.index_cast %{g}s : vector<4xindex> to vector<4xi32>\n"
                 "{r} = arith.addi %{g}c, {a} : vector<4xi32>",
        signatures=[sig([V4I], [V4I])]),
    Row("vector.create_mask",
        template="%{g}k = arith.constant 5 : i32\n"
                 "%{g}p = arith.remui {b}, %{g}k : i32\n"
                 "%{g}n = arith.index_castui %{g}p : i32 to index\n"
                 "%{g}m = vector.create_mask %{g}n : vector<4xi1>\n"
                 "%{g}z = arith.constant dense<-1> : vector<4xi32>\n"
                 "{r} = arith.select %{g}m, {a}, %{g}z : vector<4xi1>, vector<4xi32>",
        signatures=[sig([V4I, "i32"], [V4I])],
        note="a size from the input"),
    Row("vector.constant_mask",
        template="%{g}m = vector.constant_mask [3] : vector<4xi1>\n"
                 "%{g}z = arith.constant dense<-1> : vector<4xi32>\n"
                 "{r} = arith.select %{g}m, {a}, %{g}z : vector<4xi1>, vector<4xi32>",
        signatures=[sig([V4I], [V4I])]),
    Row("vector.interleave",
        template="%{g}x = vector.extract_strided_slice {a} {{offsets = [0], "
                 "sizes = [2], strides = [1]}} : vector<4xi32> to vector<2xi32>\n"
                 "%{g}y = vector.extract_strided_slice {b} {{offsets = [2], "
                 "sizes = [2], strides = [1]}} : vector<4xi32> to vector<2xi32>\n"
                 "{r} = vector.interleave %{g}x, %{g}y : vector<2xi32> -> vector<4xi32>",
        signatures=[sig([V4I, V4I], [V4I])]),
    Row("vector.deinterleave",
        template="%{g}x, %{g}y = vector.deinterleave {a} : vector<4xi32> -> vector<2xi32>\n"
                 "{r} = vector.interleave %{g}y, %{g}x : vector<2xi32> -> vector<4xi32>",
        signatures=[sig([V4I], [V4I])]),
    Row("vector.scan",
        template="%{g}z = arith.constant 0 : i32\n"
                 "%{g}i = vector.broadcast %{g}z : i32 to vector<i32>\n"
                 "{r}, %{g}t = vector.scan <add>, {a}, %{g}i {{inclusive = true, "
                 "reduction_dim = 0}} : vector<4xi32>, vector<i32>",
        signatures=[sig([V4I], [V4I])]),
    Row("vector.load",
        template="%{g}k = arith.constant {LAST} : index\n"
                 "%{g}j0 = arith.addi {i}, {i} : index\n"
                 "%{g}j = arith.minui %{g}j0, %{g}k : index\n"
                 "{r} = vector.load {A0}[%{g}j] : memref<{N}xi32>, vector<4xi32>",
        signatures=[sig(["i32"], [V4I])],
        note="at any element, not only a multiple of 4"),
    Row("vector.store",
        template="%{g}m = memref.alloca() : memref<8xi32>\n"
                 "%{g}z = arith.constant dense<7> : vector<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c4 = arith.constant 4 : index\n"
                 "vector.store %{g}z, %{g}m[%{g}c0] : memref<8xi32>, vector<4xi32>\n"
                 "vector.store %{g}z, %{g}m[%{g}c4] : memref<8xi32>, vector<4xi32>\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "vector.store {a}, %{g}m[%{g}c1] : memref<8xi32>, vector<4xi32>\n"
                 "{r} = vector.load %{g}m[%{g}c0] : memref<8xi32>, vector<4xi32>",
        signatures=[sig([V4I], [V4I])],
        note="into private memory at an unaligned element"),
    Row("vector.transfer_read",
        template="%{g}k = arith.constant 2 : index\n"
                 "%{g}j = arith.addi {i}, %{g}k : index\n"
                 "%{g}q = arith.muli %{g}j, %{g}k : index\n"
                 "%{g}p = arith.constant -1 : i32\n"
                 "{r} = vector.transfer_read {A0}[%{g}q], %{g}p : memref<{N}xi32>, vector<4xi32>",
        signatures=[sig(["i32"], [V4I])],
        note="past the end too: the padding value there"),
    Row("vector.transfer_write",
        template="%{g}m = memref.alloca() : memref<6xi32>\n"
                 "%{g}z = arith.constant dense<9> : vector<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c2 = arith.constant 2 : index\n"
                 "%{g}c3 = arith.constant 3 : index\n"
                 "vector.transfer_write %{g}z, %{g}m[%{g}c0] {{in_bounds = [true]}} : vector<4xi32>, memref<6xi32>\n"
                 "vector.transfer_write %{g}z, %{g}m[%{g}c2] {{in_bounds = [true]}} : vector<4xi32>, memref<6xi32>\n"
                 "vector.transfer_write {a}, %{g}m[%{g}c3] : vector<4xi32>, memref<6xi32>\n"
                 "%{g}c0i = arith.constant 0 : i32\n"
                 "{r} = vector.transfer_read %{g}m[%{g}c2], %{g}c0i {{in_bounds = [true]}} : memref<6xi32>, vector<4xi32>",
        signatures=[sig([V4I], [V4I])],
        note="partly past the end: what is past it is not written"),
    masked_read("vector.maskedload", -5),
    Row("vector.maskedstore",
        template="%{g}a = memref.alloca() : memref<4xi32>\n"
                 "%{g}z = arith.constant dense<3> : vector<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "vector.store %{g}z, %{g}a[%{g}c0] : memref<4xi32>, vector<4xi32>\n"
                 "%{g}m = vector.constant_mask [3] : vector<4xi1>\n"
                 "vector.maskedstore %{g}a[%{g}c0], %{g}m, {a} : memref<4xi32>, vector<4xi1>, vector<4xi32>\n"
                 "{r} = vector.load %{g}a[%{g}c0] : memref<4xi32>, vector<4xi32>",
        signatures=[sig([V4I], [V4I])]),
    Row("vector.gather",
        template="%{g}c0 = arith.constant 0 : index\n"
                 "%{g}n = arith.constant dense<{N}> : vector<4xi32>\n"
                 "%{g}u = math.absi {b} : vector<4xi32>\n"
                 "%{g}x = arith.remui %{g}u, %{g}n : vector<4xi32>\n"
                 "%{g}m = vector.constant_mask [3] : vector<4xi1>\n"
                 "%{g}p = arith.constant dense<-2> : vector<4xi32>\n"
                 "{r} = vector.gather {A0}[%{g}c0] [%{g}x], %{g}m, %{g}p : memref<{N}xi32>, vector<4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>",
        signatures=[sig([V4I, V4I], [V4I])],
        note="indices from the input"),
    Row("vector.scatter",
        template="%{g}a = memref.alloca() : memref<8xi32>\n"
                 "%{g}z = arith.constant dense<0> : vector<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c4 = arith.constant 4 : index\n"
                 "vector.store %{g}z, %{g}a[%{g}c0] : memref<8xi32>, vector<4xi32>\n"
                 "vector.store %{g}z, %{g}a[%{g}c4] : memref<8xi32>, vector<4xi32>\n"
                 "%{g}x = arith.constant dense<[7, 0, 5, 2]> : vector<4xi32>\n"
                 "%{g}m = vector.constant_mask [3] : vector<4xi1>\n"
                 "vector.scatter %{g}a[%{g}c0] [%{g}x], %{g}m, {a} : memref<8xi32>, vector<4xi32>, vector<4xi1>, vector<4xi32>\n"
                 "%{g}l = vector.load %{g}a[%{g}c0] : memref<8xi32>, vector<4xi32>\n"
                 "%{g}h = vector.load %{g}a[%{g}c4] : memref<8xi32>, vector<4xi32>\n"
                 "{r} = arith.addi %{g}l, %{g}h : vector<4xi32>",
        signatures=[sig([V4I], [V4I])]),
    masked_read("vector.expandload", -3),
    Row("vector.compressstore",
        template="%{g}a = memref.alloca() : memref<4xi32>\n"
                 "%{g}z = arith.constant dense<8> : vector<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "vector.store %{g}z, %{g}a[%{g}c0] : memref<4xi32>, vector<4xi32>\n"
                 "%{g}m = arith.constant dense<[true, false, true, false]> : vector<4xi1>\n"
                 "vector.compressstore %{g}a[%{g}c0], %{g}m, {a} : memref<4xi32>, vector<4xi1>, vector<4xi32>\n"
                 "{r} = vector.load %{g}a[%{g}c0] : memref<4xi32>, vector<4xi32>",
        signatures=[sig([V4I], [V4I])]),
    Row("vector.mask",
        template="%{g}m = vector.constant_mask [3] : vector<4xi1>\n"
                 "%{g}k = arith.constant {LAST} : index\n"
                 "%{g}j = arith.minui {i}, %{g}k : index\n"
                 "%{g}p = arith.constant -4 : i32\n"
                 "{r} = vector.mask %{g}m {{ vector.transfer_read {A0}[%{g}j], %{g}p "
                 ": memref<{N}xi32>, vector<4xi32> }} : vector<4xi1> -> vector<4xi32>",
        signatures=[sig(["i32"], [V4I])],
        note="a masked transfer_read (and vector.yield, its terminator)"),
    Row("vector.type_cast",
        template="%{g}a = memref.alloca() : memref<4xf32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "vector.store {a}, %{g}a[%{g}c0] : memref<4xf32>, vector<4xf32>\n"
                 "%{g}v = vector.type_cast %{g}a : memref<4xf32> to memref<vector<4xf32>>\n"
                 "{r} = memref.load %{g}v[] : memref<vector<4xf32>>",
        signatures=[sig([V4F], [V4F])]),
]

ROWS = ARITH + MATH + INDEX + COMPLEX + VECTOR
