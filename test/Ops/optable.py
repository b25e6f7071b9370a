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
    complex_binop("complex.pow", tol=Tolerance(rel=1e-4, abs_err=1e-5),
                  vulkan_tol=Tolerance(
                      rel=2e-3, abs_err=1e-3,
                      note="exp(y log x): Vulkan's sin and cos are good to "
                           "2^-11 absolute, its exp and log to 3 + 2|x| ULP")),
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
        vulkan=expanded("and, or, xor element by element (Kiln)"),
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


# ---------------------------------------------------------------------------
# memref: private memory, views of the inputs, globals, atomics.
# ---------------------------------------------------------------------------

PRIV2 = ("%{g}m = memref.alloca() : memref<2x{T0}>\n"
         "%{g}c0 = arith.constant 0 : index\n"
         "%{g}c1 = arith.constant 1 : index\n"
         "memref.store {a}, %{g}m[%{g}c0] : memref<2x{T0}>\n"
         "memref.store {b}, %{g}m[%{g}c1] : memref<2x{T0}>\n")
PICK = ("%{g}k2 = arith.constant 2 : i32\n"
        "%{g}u = math.absi {c} : i32\n"
        "%{g}p = arith.remui %{g}u, %{g}k2 : i32\n"
        "%{g}q = arith.index_castui %{g}p : i32 to index\n")
PRIVATE = expanded("private memory: a Function variable on SPIR-V")


def atomic_row(name, kinds, t, init, **kw):
    """Atomic updates of one shared accumulator per kind by every
    invocation; the accumulators' final values are compared."""
    lines = ["%{g}z = arith.constant " + ("0.0" if t.startswith("f") else "0")
             + " : " + t]
    for k, kind in enumerate(kinds):
        lines.append("%%{g}c%d = arith.constant %d : index" % (k, k))
        lines.append("%%{g}o%d = memref.atomic_rmw %s {a}, {ACC}[%%{g}c%d] : "
                     "(%s, memref<%dx%s>) -> %s" % (k, kind, k, t, len(kinds),
                                                    t, t))
    lines.append("{r} = arith.%s {a}, %%{g}z : %s" % (
        "addf" if t.startswith("f") else "addi", t))
    return Row("memref.atomic_rmw", name=name, template="\n".join(lines),
               signatures=[sig([t], [t])], acc=(t, len(kinds), init), **kw)


MEMREF = [
    Row("memref.load", template=PRIV2 + PICK +
        "{r} = memref.load %{g}m[%{g}q] : memref<2x{T0}>",
        signatures=[sig(["i32", "i32", "i32"], ["i32"]),
                    sig(["f32", "f32", "i32"], ["f32"]),
                    sig(["i64", "i64", "i32"], ["i64"])],
        note="from private memory at a computed index"),
    Row("memref.store", template=PRIV2 + PICK +
        "memref.store {b}, %{g}m[%{g}q] : memref<2x{T0}>\n"
        "{r} = memref.load %{g}m[%{g}c0] : memref<2x{T0}>",
        signatures=[sig(["i32", "i32", "i32"], ["i32"]),
                    sig(["f16", "f16", "i32"], ["f16"])],
        note="into private memory at a computed index"),
    Row("memref.alloca", template=PRIV2 + PICK +
        "{r} = memref.load %{g}m[%{g}q] : memref<2x{T0}>",
        signatures=[sig(["f64", "f64", "i32"], ["f64"]),
                    sig(["i8", "i8", "i32"], ["i8"])],
        vulkan=PRIVATE, note="a private array per invocation"),
    Row("memref.alloc",
        template="%{g}m = memref.alloc() : memref<2x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "memref.store {a}, %{g}m[%{g}c0] : memref<2x{T0}>\n"
                 "{r} = memref.load %{g}m[%{g}c0] : memref<2x{T0}>\n"
                 "memref.dealloc %{g}m : memref<2x{T0}>",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=refused("Vulkan kernels cannot allocate global memory; use "
                       "memref.alloca (private), workgroup memory, or a "
                       "buffer passed in",
                       r"'memref\.alloc' cannot run on Kiln's SPIR-V targets"),
        cuda=lowered("malloc / free from the device heap"),
        note="global memory allocated by the kernel"),
    Row("memref.dealloc",
        template="%{g}m = memref.alloc() : memref<2x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "memref.store {a}, %{g}m[%{g}c0] : memref<2x{T0}>\n"
                 "{r} = memref.load %{g}m[%{g}c0] : memref<2x{T0}>\n"
                 "memref.dealloc %{g}m : memref<2x{T0}>",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=refused("only with memref.alloc, which Vulkan kernels lack",
                       r"'memref\.alloc' cannot run on Kiln's SPIR-V targets"),
        cuda=lowered("free")),
    Row("memref.realloc",
        template="%{g}m = memref.alloc() : memref<2x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c3 = arith.constant 3 : index\n"
                 "memref.store {a}, %{g}m[%{g}c0] : memref<2x{T0}>\n"
                 "%{g}n = memref.realloc %{g}m : memref<2x{T0}> to memref<4x{T0}>\n"
                 "memref.store {a}, %{g}n[%{g}c3] : memref<4x{T0}>\n"
                 "%{g}x = memref.load %{g}n[%{g}c0] : memref<4x{T0}>\n"
                 "%{g}y = memref.load %{g}n[%{g}c3] : memref<4x{T0}>\n"
                 "{r} = arith.addi %{g}x, %{g}y : {T0}\n"
                 "memref.dealloc %{g}n : memref<4x{T0}>",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=refused("Vulkan kernels cannot allocate global memory",
                       r"'memref\.alloc' cannot run on Kiln's SPIR-V targets"),
        cuda=lowered("malloc, copy and free")),
    Row("memref.alloca_scope",
        template="{r} = memref.alloca_scope -> ({T0}) {{\n" + PRIV2 +
                 "%{g}x = memref.load %{g}m[%{g}c1] : memref<2x{T0}>\n"
                 "memref.alloca_scope.return %{g}x : {T0}\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])],
        note="and memref.alloca_scope.return"),
    Row("memref.assume_alignment",
        template="%{g}a = memref.assume_alignment {A0}, 4 : memref<{N}x{T0}>\n"
                 "{r} = memref.load %{g}a[{i}] : memref<{N}x{T0}>",
        signatures=[sig(["i32"], ["i32"])]),
    atomic_row("memref.atomic_rmw (integer)",
               ["addi", "ori", "xori", "maxs", "maxu", "mins", "muli"],
               "i32", "0", uniform=False,
               note="addi, ori, xori, maxs, maxu, mins, muli from 0"),
    atomic_row("memref.atomic_rmw (integer, from -1)",
               ["andi", "minu", "mins", "maxs"], "i32", "-1",
               note="andi, minu, mins, maxs from -1"),
    atomic_row("memref.atomic_rmw (i64)", ["addi", "maxs", "ori"], "i64", "0",
               note="64-bit addi, maxs, ori (Int64Atomics)"),
    atomic_row("memref.atomic_rmw (addf)", ["addf"], "f32", "0",
               tol=Tolerance(rel=1e-5, abs_err=1e-30, signed_zero=False,
                             note="sums in any order"),
               inputs=lambda ops: [[from_float(Type("f32"), x) for x in
                                    (0.5, -1.25, 3.0, 100.0, -7.5, 2.0)]],
               vulkan=kiln("OpAtomicFAddEXT where the target env has "
                           "AtomicFloat32AddEXT (the device's, lavapipe, "
                           "spirv-cpu; not desktop)"),
               note="32-bit float add"),
    atomic_row("memref.atomic_rmw (float min/max)",
               ["maximumf", "minimumf", "maxnumf", "minnumf"], "f32", "0",
               inputs=lambda ops: [[from_float(Type("f32"), x) for x in
                                    (0.5, -1.25, 3.0, 100.0, -7.5, 2.0)]],
               vulkan=refused("SPIR-V's float atomics are add and exchange, "
                              "and its compare-exchange takes integers only",
                              r"memref\.atomic_rmw' maximumf on 'f32' cannot "
                              r"run on Kiln's SPIR-V targets"),
               cuda=lowered("a compare-and-swap loop"),
               note="maximumf, minimumf, maxnumf, minnumf"),
    Row("memref.atomic_rmw", name="memref.atomic_rmw (assign)",
        template="%{g}o = memref.atomic_rmw assign {a}, {ACC}[{i}] : "
                 "({T0}, memref<{N}x{T0}>) -> {T0}\n"
                 "{r} = arith.addi {a}, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])], acc=("i32", "N", "0"),
        note="each invocation its own element"),
    Row("memref.generic_atomic_rmw",
        template="%{g}c0 = arith.constant 0 : index\n"
                 "%{g}o = memref.generic_atomic_rmw {ACC}[%{g}c0] : memref<1xi32> {{\n"
                 "^bb0(%{g}v: i32):\n"
                 "  %{g}m = arith.maxsi %{g}v, {a} : i32\n"
                 "  memref.atomic_yield %{g}m : i32\n"
                 "}}\n"
                 "{r} = arith.addi {a}, {a} : i32",
        signatures=[sig(["i32"], ["i32"])], acc=("i32", 1, "0"),
        note="a compare-and-swap loop (and memref.atomic_yield)"),
    Row("memref.cast",
        template="%{g}c = memref.cast {A0} : memref<{N}x{T0}> to memref<?x{T0}>\n"
                 "{r} = memref.load %{g}c[{i}] : memref<?x{T0}>",
        signatures=[sig(["i32"], ["i32"]), sig(["f32"], ["f32"])],
        note="of an input to a dynamic shape"),
    Row("memref.collapse_shape",
        template="%{g}m = memref.alloca() : memref<2x2x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "memref.store {a}, %{g}m[%{g}c0, %{g}c1] : memref<2x2x{T0}>\n"
                 "memref.store {b}, %{g}m[%{g}c1, %{g}c0] : memref<2x2x{T0}>\n"
                 "%{g}f = memref.collapse_shape %{g}m [[0, 1]] : memref<2x2x{T0}> into memref<4x{T0}>\n"
                 "%{g}c2 = arith.constant 2 : index\n"
                 "%{g}x = memref.load %{g}f[%{g}c1] : memref<4x{T0}>\n"
                 "%{g}y = memref.load %{g}f[%{g}c2] : memref<4x{T0}>\n"
                 "{r} = arith.subi %{g}x, %{g}y : {T0}",
        signatures=[sig(["i32", "i32"], ["i32"])]),
    Row("memref.expand_shape",
        template="%{g}e = memref.expand_shape {A0} [[0, 1]] output_shape [{N}, 1] : "
                 "memref<{N}x{T0}> into memref<{N}x1x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "{r} = memref.load %{g}e[{i}, %{g}c0] : memref<{N}x1x{T0}>",
        signatures=[sig(["i32"], ["i32"])], note="of an input"),
    Row("memref.subview",
        template="%{g}s = memref.subview {A0}[{i}] [1] [1] : memref<{N}x{T0}> to "
                 "memref<1x{T0}, strided<[1], offset: ?>>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "{r} = memref.load %{g}s[%{g}c0] : memref<1x{T0}, strided<[1], offset: ?>>",
        signatures=[sig(["i32"], ["i32"]), sig(["f32"], ["f32"])],
        note="of an input, at a run-time offset"),
    Row("memref.reinterpret_cast",
        template="%{g}s = memref.reinterpret_cast {A0} to offset: [{i}], sizes: [1], "
                 "strides: [1] : memref<{N}x{T0}> to memref<1x{T0}, strided<[1], offset: ?>>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "{r} = memref.load %{g}s[%{g}c0] : memref<1x{T0}, strided<[1], offset: ?>>",
        signatures=[sig(["i32"], ["i32"])], note="of an input"),
    Row("memref.reshape",
        template="%{g}sh = memref.alloca() : memref<2xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}one = arith.constant 1 : i32\n"
                 "%{g}cn = arith.constant {N} : i32\n"
                 "memref.store %{g}one, %{g}sh[%{g}c0] : memref<2xi32>\n"
                 "memref.store %{g}cn, %{g}sh[%{g}c1] : memref<2xi32>\n"
                 "%{g}r = memref.reshape {A0}(%{g}sh) : (memref<{N}x{T0}>, memref<2xi32>) -> memref<?x?x{T0}>\n"
                 "{r} = memref.load %{g}r[%{g}c0, {i}] : memref<?x?x{T0}>",
        signatures=[sig(["i32"], ["i32"])], note="of an input, shape from memory"),
    Row("memref.transpose",
        template="%{g}m = memref.alloca() : memref<2x2x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "memref.store {a}, %{g}m[%{g}c0, %{g}c1] : memref<2x2x{T0}>\n"
                 "memref.store {b}, %{g}m[%{g}c1, %{g}c0] : memref<2x2x{T0}>\n"
                 "%{g}t = memref.transpose %{g}m (i, j) -> (j, i) : memref<2x2x{T0}> to "
                 "memref<2x2x{T0}, affine_map<(d0, d1) -> (d0 + d1 * 2)>>\n"
                 "{r} = memref.load %{g}t[%{g}c0, %{g}c1] : memref<2x2x{T0}, "
                 "affine_map<(d0, d1) -> (d0 + d1 * 2)>>",
        signatures=[sig(["i32", "i32"], ["i32"])]),
    Row("memref.view",
        vulkan=refused("SPIR-V's logical addressing cannot read bytes as "
                       "another type", r"memref\.view"),
        template="%{g}b = memref.alloca() : memref<16xi8>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}v = memref.view %{g}b[%{g}c0][] : memref<16xi8> to memref<4x{T0}>\n"
                 "memref.store {a}, %{g}v[%{g}c1] : memref<4x{T0}>\n"
                 "{r} = memref.load %{g}v[%{g}c1] : memref<4x{T0}>",
        signatures=[sig(["f32"], ["f32"])],
        note="bytes of private memory as floats"),
    Row("memref.dim",
        template="%{g}c = memref.cast {A0} : memref<{N}x{T0}> to memref<?x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}d = memref.dim %{g}c, %{g}c0 : memref<?x{T0}>\n"
                 "%{g}e = arith.index_cast %{g}d : index to {T0}\n"
                 "{r} = arith.addi %{g}e, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])]),
    Row("memref.rank",
        template="%{g}u = memref.cast {A0} : memref<{N}x{T0}> to memref<*x{T0}>\n"
                 "%{g}k = memref.rank %{g}u : memref<*x{T0}>\n"
                 "%{g}e = arith.index_cast %{g}k : index to {T0}\n"
                 "{r} = arith.addi %{g}e, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])]),
    Row("memref.copy",
        template=PRIV2 +
                 "%{g}d = memref.alloca() : memref<2x{T0}>\n"
                 "memref.copy %{g}m, %{g}d : memref<2x{T0}> to memref<2x{T0}>\n"
                 "%{g}x = memref.load %{g}d[%{g}c0] : memref<2x{T0}>\n"
                 "%{g}y = memref.load %{g}d[%{g}c1] : memref<2x{T0}>\n"
                 "{r} = arith.xori %{g}x, %{g}y : {T0}",
        signatures=[sig(["i32", "i32"], ["i32"])], note="private to private"),
    Row("memref.extract_aligned_pointer_as_index",
        template="%{g}p = memref.extract_aligned_pointer_as_index {A0} : memref<{N}x{T0}> -> index\n"
                 "%{g}k = arith.constant 4 : index\n"
                 "%{g}r = arith.remui %{g}p, %{g}k : index\n"
                 "%{g}e = arith.index_cast %{g}r : index to {T0}\n"
                 "{r} = arith.addi %{g}e, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=refused("Vulkan kernels have no addresses of their buffers "
                       "(logical addressing)",
                       r"'memref\.extract_aligned_pointer_as_index' cannot run "
                       r"on Kiln's SPIR-V targets"),
        note="the address modulo 4 (the same everywhere)"),
    Row("memref.extract_strided_metadata",
        template="%{g}s = memref.subview {A0}[{i}] [1] [1] : memref<{N}x{T0}> to "
                 "memref<1x{T0}, strided<[1], offset: ?>>\n"
                 "%{g}b, %{g}o, %{g}z, %{g}t = memref.extract_strided_metadata %{g}s : "
                 "memref<1x{T0}, strided<[1], offset: ?>> -> memref<{T0}>, index, index, index\n"
                 "%{g}x = arith.addi %{g}o, %{g}z : index\n"
                 "%{g}y = arith.addi %{g}x, %{g}t : index\n"
                 "%{g}e = arith.index_cast %{g}y : index to {T0}\n"
                 "{r} = arith.addi %{g}e, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])],
        note="offset, size and stride of a view"),
    Row("memref.get_global",
        template="%{g}t = memref.get_global @{g}_table : memref<8x{T0}>\n"
                 "%{g}u = math.absi {a} : {T0}\n"
                 "%{g}k8 = arith.constant 8 : {T0}\n"
                 "%{g}p = arith.remui %{g}u, %{g}k8 : {T0}\n"
                 "%{g}q = arith.index_castui %{g}p : {T0} to index\n"
                 "{r} = memref.load %{g}t[%{g}q] : memref<8x{T0}>",
        globals=['memref.global "private" constant @{g}_table : memref<8xi32> = '
                 'dense<[3, -1, 2147483647, 0, 7, -2147483648, 42, 5]>'],
        signatures=[sig(["i32"], ["i32"])],
        vulkan=kiln("a constant table in the kernel (a private array "
                    "initialized from a constant)"),
        note="and memref.global: a constant table read at a computed index"),
    Row("memref.memory_space_cast",
        template=PRIV2.replace("memref<2x{T0}>", "memref<2x{T0}, #gpu.address_space<private>>") +
                 "%{g}g = memref.memory_space_cast %{g}m : memref<2x{T0}, "
                 "#gpu.address_space<private>> to memref<2x{T0}>\n"
                 "{r} = memref.load %{g}g[%{g}c1] : memref<2x{T0}>",
        signatures=[sig(["i32", "i32"], ["i32"])],
        vulkan=refused("SPIR-V's logical addressing has no generic pointers",
                       r"'memref\.memory_space_cast' cannot run on Kiln's "
                       r"SPIR-V targets"),
        note="private to generic"),
    Row("memref.prefetch",
        template="memref.prefetch {A0}[{i}], read, locality<3>, data : memref<{N}x{T0}>\n"
                 "{r} = memref.load {A0}[{i}] : memref<{N}x{T0}>",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=kiln("dropped (SPIR-V has no prefetch)")),
    Row("memref.distinct_objects",
        template="%{g}m = memref.alloca() : memref<1x{T0}>\n"
                 "%{g}a, %{g}b = memref.distinct_objects {A0}, %{g}m : "
                 "memref<{N}x{T0}>, memref<1x{T0}>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "memref.store {a}, %{g}b[%{g}c0] : memref<1x{T0}>\n"
                 "%{g}x = memref.load %{g}a[{i}] : memref<{N}x{T0}>\n"
                 "%{g}y = memref.load %{g}b[%{g}c0] : memref<1x{T0}>\n"
                 "{r} = arith.addi %{g}x, %{g}y : {T0}",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=kiln("its operands (a promise of no aliasing)")),
    Row("memref.dma_start",
        template="%{g}d = memref.alloca() : memref<4x{T0}>\n"
                 "%{g}t = memref.alloca() : memref<1xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c4 = arith.constant 4 : index\n"
                 "memref.dma_start {A0}[%{g}c0], %{g}d[%{g}c0], %{g}c4, %{g}t[%{g}c0] : "
                 "memref<{N}x{T0}>, memref<4x{T0}>, memref<1xi32>\n"
                 "memref.dma_wait %{g}t[%{g}c0], %{g}c4 : memref<1xi32>\n"
                 "{r} = memref.load %{g}d[%{g}c0] : memref<4x{T0}>",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=refused("no DMA engine in kernels",
                       r"'memref\.dma_start' cannot run on Kiln's SPIR-V"),
        cuda=refused("no DMA engine in kernels", r"memref\.dma_start"),
        note="and memref.dma_wait"),
]


# ---------------------------------------------------------------------------
# scf and cf
# ---------------------------------------------------------------------------

SMALL_I32 = lambda ops: [[x % 2 ** 32 for x in (0, 1, 5, 17, -3, 100, 7)]
                         for t in ops]

SCF = [
    Row("scf.for",
        template="%{g}k = arith.constant 16 : i32\n"
                 "%{g}u = math.absi {a} : i32\n"
                 "%{g}n = arith.remui %{g}u, %{g}k : i32\n"
                 "%{g}ub = arith.index_castui %{g}n : i32 to index\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "{r} = scf.for %{g}j = %{g}c0 to %{g}ub step %{g}c1 iter_args(%{g}s = {b}) -> (i32) {{\n"
                 "  %{g}x = arith.index_cast %{g}j : index to i32\n"
                 "  %{g}y = arith.muli %{g}x, %{g}s : i32\n"
                 "  %{g}z = arith.addi %{g}y, %{g}x : i32\n"
                 "  scf.yield %{g}z : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])],
        note="a data-dependent trip count with a loop-carried value "
             "(and scf.yield)"),
    Row("scf.if",
        template="%{g}c = arith.cmpi slt, {a}, {b} : i32\n"
                 "{r} = scf.if %{g}c -> (i32) {{\n"
                 "  %{g}x = arith.subi {b}, {a} : i32\n"
                 "  scf.yield %{g}x : i32\n}} else {{\n"
                 "  %{g}y = arith.muli {a}, {b} : i32\n"
                 "  scf.yield %{g}y : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])]),
    Row("scf.while",
        template="%{g}k = arith.constant 20 : i32\n"
                 "%{g}u = math.absi {a} : i32\n"
                 "%{g}m = arith.remui %{g}u, %{g}k : i32\n"
                 "%{g}one = arith.constant 1 : i32\n"
                 "%{g}x0 = arith.addi %{g}m, %{g}one : i32\n"
                 "%{g}zero = arith.constant 0 : i32\n"
                 "%{g}v, {r} = scf.while (%{g}x = %{g}x0, %{g}s = %{g}zero) : (i32, i32) -> (i32, i32) {{\n"
                 "  %{g}more = arith.cmpi ne, %{g}x, %{g}one : i32\n"
                 "  scf.condition(%{g}more) %{g}x, %{g}s : i32, i32\n"
                 "}} do {{\n"
                 "^bb0(%{g}y: i32, %{g}t: i32):\n"
                 "  %{g}two = arith.constant 2 : i32\n"
                 "  %{g}three = arith.constant 3 : i32\n"
                 "  %{g}r = arith.remui %{g}y, %{g}two : i32\n"
                 "  %{g}even = arith.cmpi eq, %{g}r, %{g}zero : i32\n"
                 "  %{g}h = arith.divui %{g}y, %{g}two : i32\n"
                 "  %{g}p = arith.muli %{g}y, %{g}three : i32\n"
                 "  %{g}q = arith.addi %{g}p, %{g}one : i32\n"
                 "  %{g}n = arith.select %{g}even, %{g}h, %{g}q : i32\n"
                 "  %{g}t1 = arith.addi %{g}t, %{g}one : i32\n"
                 "  scf.yield %{g}n, %{g}t1 : i32, i32\n}}",
        signatures=[sig(["i32"], ["i32"])],
        note="Collatz steps (and scf.condition)"),
    Row("scf.parallel",
        template="%{g}m = memref.alloca() : memref<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}c4 = arith.constant 4 : index\n"
                 "scf.parallel (%{g}j) = (%{g}c0) to (%{g}c4) step (%{g}c1) {{\n"
                 "  %{g}x = arith.index_cast %{g}j : index to i32\n"
                 "  %{g}y = arith.muli %{g}x, {a} : i32\n"
                 "  memref.store %{g}y, %{g}m[%{g}j] : memref<4xi32>\n"
                 "  scf.reduce\n}}\n"
                 "%{g}z = arith.constant 0 : i32\n"
                 "{r} = scf.parallel (%{g}j) = (%{g}c0) to (%{g}c4) step (%{g}c1) init (%{g}z) -> i32 {{\n"
                 "  %{g}v = memref.load %{g}m[%{g}j] : memref<4xi32>\n"
                 "  scf.reduce(%{g}v : i32) {{\n"
                 "  ^bb0(%{g}l: i32, %{g}rr: i32):\n"
                 "    %{g}s = arith.addi %{g}l, %{g}rr : i32\n"
                 "    scf.reduce.return %{g}s : i32\n  }}\n}}",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=expanded("a sequential loop in the invocation"),
        cuda=expanded("a sequential loop in the invocation"),
        note="in a kernel: one invocation's loop (and scf.reduce, "
             "scf.reduce.return)"),
    Row("scf.forall",
        template="%{g}m = memref.alloca() : memref<4xi32>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}c3 = arith.constant 3 : index\n"
                 "scf.forall (%{g}j) in (4) {{\n"
                 "  %{g}x = arith.index_cast %{g}j : index to i32\n"
                 "  %{g}y = arith.addi %{g}x, {a} : i32\n"
                 "  memref.store %{g}y, %{g}m[%{g}j] : memref<4xi32>\n}}\n"
                 "%{g}p = memref.load %{g}m[%{g}c1] : memref<4xi32>\n"
                 "%{g}q = memref.load %{g}m[%{g}c3] : memref<4xi32>\n"
                 "{r} = arith.muli %{g}p, %{g}q : i32",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=expanded("scf-forall-to-for: a sequential loop"),
        cuda=expanded("scf-forall-to-for: a sequential loop"),
        note="in a kernel: one invocation's loop (and scf.forall.in_parallel)"),
    Row("scf.execute_region",
        template="{r} = scf.execute_region -> i32 {{\n"
                 "  %{g}c = arith.cmpi sgt, {a}, {b} : i32\n"
                 "  cf.cond_br %{g}c, ^bb1, ^bb2\n"
                 "^bb1:\n"
                 "  scf.yield {a} : i32\n"
                 "^bb2:\n"
                 "  %{g}x = arith.addi {a}, {b} : i32\n"
                 "  scf.yield %{g}x : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])],
        note="with several blocks"),
    Row("scf.index_switch",
        template="%{g}k = arith.constant 5 : i32\n"
                 "%{g}u = math.absi {a} : i32\n"
                 "%{g}m = arith.remui %{g}u, %{g}k : i32\n"
                 "%{g}s = arith.index_castui %{g}m : i32 to index\n"
                 "{r} = scf.index_switch %{g}s -> i32\n"
                 "case 0 {{\n  scf.yield {b} : i32\n}}\n"
                 "case 2 {{\n  %{g}x = arith.muli {b}, {b} : i32\n  scf.yield %{g}x : i32\n}}\n"
                 "case 3 {{\n  %{g}y = arith.subi {a}, {b} : i32\n  scf.yield %{g}y : i32\n}}\n"
                 "default {{\n  scf.yield {a} : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])]),
]

CF = [
    Row("cf.br",
        template="{r} = scf.execute_region -> i32 {{\n"
                 "  %{g}x = arith.addi {a}, {b} : i32\n"
                 "  cf.br ^bb1(%{g}x : i32)\n"
                 "^bb1(%{g}y: i32):\n"
                 "  %{g}z = arith.muli %{g}y, {a} : i32\n"
                 "  scf.yield %{g}z : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])],
        vulkan=expanded("structured (cf-to-scf)")),
    Row("cf.cond_br",
        template="{r} = scf.execute_region -> i32 {{\n"
                 "  %{g}c = arith.cmpi ult, {a}, {b} : i32\n"
                 "  cf.cond_br %{g}c, ^bb1({a} : i32), ^bb2({b} : i32)\n"
                 "^bb1(%{g}x: i32):\n"
                 "  %{g}u = arith.subi {b}, %{g}x : i32\n"
                 "  cf.br ^bb3(%{g}u : i32)\n"
                 "^bb2(%{g}y: i32):\n"
                 "  %{g}v = arith.xori %{g}y, {a} : i32\n"
                 "  cf.br ^bb3(%{g}v : i32)\n"
                 "^bb3(%{g}z: i32):\n"
                 "  scf.yield %{g}z : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])],
        vulkan=expanded("structured (cf-to-scf)")),
    Row("cf.switch",
        template="{r} = scf.execute_region -> i32 {{\n"
                 "  %{g}k = arith.constant 3 : i32\n"
                 "  %{g}u = math.absi {a} : i32\n"
                 "  %{g}m = arith.remui %{g}u, %{g}k : i32\n"
                 "  cf.switch %{g}m : i32, [\n"
                 "    default: ^bb3({b} : i32),\n"
                 "    0: ^bb1,\n"
                 "    1: ^bb2({a} : i32)\n  ]\n"
                 "^bb1:\n"
                 "  %{g}x = arith.addi {a}, {b} : i32\n"
                 "  scf.yield %{g}x : i32\n"
                 "^bb2(%{g}y: i32):\n"
                 "  scf.yield %{g}y : i32\n"
                 "^bb3(%{g}z: i32):\n"
                 "  %{g}w = arith.muli %{g}z, %{g}z : i32\n"
                 "  scf.yield %{g}w : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])],
        vulkan=expanded("structured (cf-to-scf)")),
    Row("cf.assert",
        template="%{g}l = memref.load {A0}[{i}] : memref<{N}xi32>\n"
                 "%{g}t = arith.cmpi eq, {a}, %{g}l : i32\n"
                 "cf.assert %{g}t, \"always holds\"\n"
                 "{r} = arith.addi {a}, {a} : i32",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=refused("a Vulkan kernel cannot stop the program",
                       r"'cf\.assert' cannot run on Kiln's SPIR-V targets"),
        cuda=lowered("__assertfail"),
        note="an assertion that holds"),
]


# ---------------------------------------------------------------------------
# affine (lowered with lower-affine before either conversion)
# ---------------------------------------------------------------------------

AFFINE_OK = expanded("lower-affine")

AFFINE = [
    Row("affine.apply",
        template="%{g}x = arith.index_cast {a} : i32 to index\n"
                 "%{g}y = affine.apply affine_map<(d0)[s0] -> (d0 * 3 + s0 floordiv 2 - (d0 mod 5))>(%{g}x)[{i}]\n"
                 "{r} = arith.index_cast %{g}y : index to i32",
        signatures=[sig(["i32"], ["i32"])], inputs=SMALL_I32,
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.min",
        template="%{g}x = arith.index_cast {a} : i32 to index\n"
                 "%{g}y = affine.min affine_map<(d0)[s0] -> (d0 * 2, s0 + 3, 40)>(%{g}x)[{i}]\n"
                 "{r} = arith.index_cast %{g}y : index to i32",
        signatures=[sig(["i32"], ["i32"])], inputs=SMALL_I32,
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.max",
        template="%{g}x = arith.index_cast {a} : i32 to index\n"
                 "%{g}y = affine.max affine_map<(d0)[s0] -> (d0 * 2, s0 - 3, 4)>(%{g}x)[{i}]\n"
                 "{r} = arith.index_cast %{g}y : index to i32",
        signatures=[sig(["i32"], ["i32"])], inputs=SMALL_I32,
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.delinearize_index",
        template="%{g}u = math.absi {a} : i32\n"
                 "%{g}x = arith.index_cast %{g}u : i32 to index\n"
                 "%{g}p:3 = affine.delinearize_index %{g}x into (4, 5, 6) : index, index, index\n"
                 "%{g}s = arith.muli %{g}p#0, %{g}p#1 : index\n"
                 "%{g}t = arith.addi %{g}s, %{g}p#2 : index\n"
                 "{r} = arith.index_cast %{g}t : index to i32",
        signatures=[sig(["i32"], ["i32"])], inputs=SMALL_I32,
        valid=lambda v, t: abs(v[0]) < 120,
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.linearize_index",
        template="%{g}x = arith.index_cast {a} : i32 to index\n"
                 "%{g}y = arith.index_cast {b} : i32 to index\n"
                 "%{g}l = affine.linearize_index [%{g}x, %{g}y] by (7, 9) : index\n"
                 "{r} = arith.index_cast %{g}l : index to i32",
        signatures=[sig(["i32", "i32"], ["i32"])], inputs=SMALL_I32,
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.for",
        template="%{g}z = arith.constant 0 : i32\n"
                 "{r} = affine.for %{g}j = 0 to 6 step 2 iter_args(%{g}s = %{g}z) -> (i32) {{\n"
                 "  %{g}x = arith.index_cast %{g}j : index to i32\n"
                 "  %{g}y = arith.muli %{g}x, {a} : i32\n"
                 "  %{g}w = arith.addi %{g}s, %{g}y : i32\n"
                 "  affine.yield %{g}w : i32\n}}",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=AFFINE_OK, cuda=AFFINE_OK, note="and affine.yield"),
    Row("affine.if",
        template="%{g}z = arith.constant 0 : i32\n"
                 "{r} = affine.for %{g}j = 0 to 8 iter_args(%{g}s = %{g}z) -> (i32) {{\n"
                 "  %{g}v = affine.if affine_set<(d0) : (d0 - 3 >= 0, 5 - d0 >= 0)>(%{g}j) -> i32 {{\n"
                 "    affine.yield {a} : i32\n  }} else {{\n"
                 "    affine.yield {b} : i32\n  }}\n"
                 "  %{g}w = arith.addi %{g}s, %{g}v : i32\n"
                 "  affine.yield %{g}w : i32\n}}",
        signatures=[sig(["i32", "i32"], ["i32"])], inputs=SMALL_I32,
        vulkan=AFFINE_OK, cuda=AFFINE_OK,
        note="on the induction variable of an affine.for"),
    Row("affine.load",
        template="%{g}z = arith.constant 0 : {T0}\n"
                 "%{g}s = affine.for %{g}j = 0 to 4 iter_args(%{g}t = %{g}z) -> ({T0}) {{\n"
                 "  %{g}v = affine.load {A0}[%{g}j * 3 + 1] : memref<{N}x{T0}>\n"
                 "  %{g}w = arith.addi %{g}t, %{g}v : {T0}\n"
                 "  affine.yield %{g}w : {T0}\n}}\n"
                 "{r} = arith.addi %{g}s, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.store",
        template="%{g}m = memref.alloca() : memref<3x{T0}>\n"
                 "affine.store {a}, %{g}m[2] : memref<3x{T0}>\n"
                 "{r} = affine.load %{g}m[2] : memref<3x{T0}>",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.vector_load",
        template="%{g}v = affine.vector_load {A0}[2] : memref<{N}xi32>, vector<4xi32>\n"
                 "%{g}b = vector.broadcast {a} : i32 to vector<4xi32>\n"
                 "{r} = arith.addi %{g}v, %{g}b : vector<4xi32>",
        signatures=[sig(["i32"], [V4I])],
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.vector_store",
        template="%{g}m = memref.alloca() : memref<8xi32>\n"
                 "%{g}z = arith.constant dense<1> : vector<4xi32>\n"
                 "affine.vector_store %{g}z, %{g}m[0] : memref<8xi32>, vector<4xi32>\n"
                 "affine.vector_store {a}, %{g}m[1] : memref<8xi32>, vector<4xi32>\n"
                 "{r} = affine.vector_load %{g}m[0] : memref<8xi32>, vector<4xi32>",
        signatures=[sig([V4I], [V4I])],
        vulkan=AFFINE_OK, cuda=AFFINE_OK),
    Row("affine.parallel",
        template="%{g}m = memref.alloca() : memref<4xi32>\n"
                 "affine.parallel (%{g}j) = (0) to (4) {{\n"
                 "  %{g}x = arith.index_cast %{g}j : index to i32\n"
                 "  %{g}y = arith.addi %{g}x, {a} : i32\n"
                 "  affine.store %{g}y, %{g}m[%{g}j] : memref<4xi32>\n}}\n"
                 "%{g}p = affine.load %{g}m[1] : memref<4xi32>\n"
                 "%{g}q = affine.load %{g}m[3] : memref<4xi32>\n"
                 "{r} = arith.muli %{g}p, %{g}q : i32",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=expanded("lower-affine: a sequential loop"),
        cuda=expanded("lower-affine: a sequential loop")),
    Row("affine.prefetch",
        template="%{g}z = arith.constant 0 : {T0}\n"
                 "%{g}s = affine.for %{g}j = 0 to 2 iter_args(%{g}t = %{g}z) -> ({T0}) {{\n"
                 "  affine.prefetch {A0}[%{g}j + 1], read, locality<3>, data : memref<{N}x{T0}>\n"
                 "  %{g}v = affine.load {A0}[%{g}j + 1] : memref<{N}x{T0}>\n"
                 "  %{g}w = arith.addi %{g}t, %{g}v : {T0}\n"
                 "  affine.yield %{g}w : {T0}\n}}\n"
                 "{r} = arith.addi %{g}s, {a} : {T0}",
        signatures=[sig(["i32"], ["i32"])],
        vulkan=expanded("lower-affine, then dropped (SPIR-V has no prefetch)"),
        cuda=AFFINE_OK),
]


# ---------------------------------------------------------------------------
# gpu: what each invocation sees, and what invocations share. The host
# emulates each op from the case index {i} (64 invocations a workgroup,
# {SG} a subgroup: the target's subgroup size).
# ---------------------------------------------------------------------------

def id_row(op, device, host, **kw):
    """An op giving an index: device `device` (an MLIR op giving %{g}t),
    host `host` (the same from {i}); the result plus the input."""
    tail = ("%{g}c = arith.index_cast %{g}t : index to i32\n"
            "{r} = arith.addi %{g}c, {a} : i32")
    return Row(op, template=device + "\n" + tail,
               host_template=host + "\n" + tail,
               signatures=[sig(["i32"], ["i32"])],
               inputs=lambda ops: [list(range(200))], **kw)


K64 = "%{g}k = arith.constant 64 : index\n"
SGK = "%{g}sg = arith.constant {SG} : index\n"


def subgroup_sum(kind_op):
    """Host: the `kind_op` (an arith op) of the inputs of this case's
    subgroup."""
    return (SGK +
            "%{g}l = arith.remui {i}, %{g}sg : index\n"
            "%{g}b = arith.subi {i}, %{g}l : index\n"
            "%{g}e = arith.addi %{g}b, %{g}sg : index\n"
            "%{g}c1 = arith.constant 1 : index\n"
            "%{g}x0 = memref.load {A0}[%{g}b] : memref<{N}xi32>\n"
            "%{g}b1 = arith.addi %{g}b, %{g}c1 : index\n"
            "{r} = scf.for %{g}j = %{g}b1 to %{g}e step %{g}c1 iter_args(%{g}s = %{g}x0) -> (i32) {{\n"
            "  %{g}x = memref.load {A0}[%{g}j] : memref<{N}xi32>\n"
            "  %{g}y = " + kind_op + " %{g}s, %{g}x : i32\n"
            "  scf.yield %{g}y : i32\n}}")


GPU_INPUTS = lambda ops: [[x % 2 ** 32 for x in
                           (3, -7, 100, 0, 2 ** 31 - 1, -2 ** 31, 42, 5, 9, -1,
                            17, 64, -33)]]
NO_CLUSTERS = refused("Vulkan has no thread-block clusters",
                      r"'gpu\.cluster_[a-z_]+' cannot run on Kiln's SPIR-V "
                      r"targets")

GPU = [
    id_row("gpu.thread_id", "%{g}t = gpu.thread_id x",
           K64 + "%{g}t = arith.remui {i}, %{g}k : index"),
    id_row("gpu.block_id", "%{g}t = gpu.block_id x",
           K64 + "%{g}t = arith.divui {i}, %{g}k : index"),
    id_row("gpu.block_dim", "%{g}t = gpu.block_dim x",
           "%{g}t = arith.constant 64 : index"),
    id_row("gpu.grid_dim", "%{g}t = gpu.grid_dim x",
           "%{g}t = arith.addi %nb, %c0 : index"),
    id_row("gpu.global_id", "%{g}t = gpu.global_id x",
           "%{g}t = arith.addi {i}, %c0 : index"),
    id_row("gpu.lane_id", "%{g}t = gpu.lane_id",
           SGK + "%{g}t = arith.remui {i}, %{g}sg : index",
           note="1-D workgroups: the lane is the thread index modulo the "
                "subgroup size"),
    id_row("gpu.subgroup_id", "%{g}t = gpu.subgroup_id : index",
           K64 + SGK + "%{g}l = arith.remui {i}, %{g}k : index\n"
           "%{g}t = arith.divui %{g}l, %{g}sg : index",
           cuda=kiln("the linear thread index / 32")),
    id_row("gpu.num_subgroups", "%{g}t = gpu.num_subgroups : index",
           K64 + SGK + "%{g}t = arith.ceildivui %{g}k, %{g}sg : index",
           cuda=kiln("the block's threads / 32, rounded up")),
    id_row("gpu.subgroup_size", "%{g}t = gpu.subgroup_size : index",
           "%{g}t = arith.constant {SG} : index",
           cuda=kiln("32")),
    id_row("gpu.cluster_id", "%{g}t = gpu.cluster_id x",
           K64 + "%{g}t = arith.divui {i}, %{g}k : index",
           vulkan=NO_CLUSTERS,
           note="a launch without clusters: one block a cluster"),
    id_row("gpu.cluster_dim", "%{g}t = gpu.cluster_dim x",
           "%{g}t = arith.addi %nb, %c0 : index", vulkan=NO_CLUSTERS,
           note="a launch without clusters: one block a cluster"),
    id_row("gpu.cluster_block_id", "%{g}t = gpu.cluster_block_id x",
           "%{g}t = arith.constant 0 : index", vulkan=NO_CLUSTERS,
           note="a launch without clusters: one block a cluster"),
    id_row("gpu.cluster_dim_blocks", "%{g}t = gpu.cluster_dim_blocks x",
           "%{g}t = arith.constant 1 : index", vulkan=NO_CLUSTERS,
           note="a launch without clusters: one block a cluster"),
    Row("gpu.barrier",
        template="%{g}w = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>\n"
                 "%{g}t = gpu.thread_id x\n"
                 "memref.store {a}, %{g}w[%{g}t] : memref<64xi32, #gpu.address_space<workgroup>>\n"
                 "gpu.barrier\n"
                 "%{g}k = arith.constant 63 : index\n"
                 "%{g}u = arith.subi %{g}k, %{g}t : index\n"
                 "{r} = memref.load %{g}w[%{g}u] : memref<64xi32, #gpu.address_space<workgroup>>",
        host_template=K64 +
                 "%{g}t = arith.remui {i}, %{g}k : index\n"
                 "%{g}b = arith.subi {i}, %{g}t : index\n"
                 "%{g}m = arith.constant 63 : index\n"
                 "%{g}e = arith.addi %{g}b, %{g}m : index\n"
                 "%{g}j = arith.subi %{g}e, %{g}t : index\n"
                 "{r} = memref.load {A0}[%{g}j] : memref<{N}xi32>",
        signatures=[sig(["i32"], ["i32"])], uniform=True,
        note="through workgroup memory: each invocation reads the value "
             "another stored"),
    Row("gpu.shuffle",
        template="%{g}w = arith.constant {SG} : i32\n"
                 "%{g}one = arith.constant 1 : i32\n"
                 "{r0}, %{g}v = gpu.shuffle xor {a}, %{g}one, %{g}w : i32\n"
                 "%{g}d, %{g}dv = gpu.shuffle down {a}, %{g}one, %{g}w : i32\n"
                 "%{g}m = arith.constant -1 : i32\n"
                 "{r1} = arith.select %{g}dv, %{g}d, %{g}m : i32",
        host_template=SGK +
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}x = arith.xori {i}, %{g}c1 : index\n"
                 "{r0} = memref.load {A0}[%{g}x] : memref<{N}xi32>\n"
                 "%{g}l = arith.remui {i}, %{g}sg : index\n"
                 "%{g}n = arith.addi %{g}l, %{g}c1 : index\n"
                 "%{g}in = arith.cmpi ult, %{g}n, %{g}sg : index\n"
                 "%{g}j = arith.addi {i}, %{g}c1 : index\n"
                 "%{g}last = arith.constant {LAST} : index\n"
                 "%{g}c4 = arith.constant 3 : index\n"
                 "%{g}top = arith.addi %{g}last, %{g}c4 : index\n"
                 "%{g}jj = arith.minui %{g}j, %{g}top : index\n"
                 "%{g}y = memref.load {A0}[%{g}jj] : memref<{N}xi32>\n"
                 "%{g}m = arith.constant -1 : i32\n"
                 "{r1} = arith.select %{g}in, %{g}y, %{g}m : i32",
        signatures=[sig(["i32"], ["i32", "i32"])], uniform=True,
        inputs=GPU_INPUTS,
        vulkan=kiln("GroupNonUniformShuffle from the computed lane (MLIR's "
                    "semantics: no wrap-around, lanes at or above the width "
                    "not valid)"),
        cuda=kiln("shfl.sync over the active lanes (MLIR's semantics)"),
        note="xor and down over a whole subgroup; every mode and width: "
             "test/Integration/Vulkan/shuffle_modes.mlir"),
    Row("gpu.rotate",
        template="{r}, %{g}v = gpu.rotate {a}, 3, 8 : i32",
        host_template="%{g}c8 = arith.constant 8 : index\n"
                 "%{g}c3 = arith.constant 3 : index\n"
                 "%{g}l = arith.remui {i}, %{g}c8 : index\n"
                 "%{g}b = arith.subi {i}, %{g}l : index\n"
                 "%{g}s = arith.addi %{g}l, %{g}c3 : index\n"
                 "%{g}m = arith.remui %{g}s, %{g}c8 : index\n"
                 "%{g}j = arith.addi %{g}b, %{g}m : index\n"
                 "{r} = memref.load {A0}[%{g}j] : memref<{N}xi32>",
        signatures=[sig(["i32"], ["i32"])], uniform=True, inputs=GPU_INPUTS,
        vulkan=kiln("GroupNonUniformShuffle from the rotated lane"),
        cuda=kiln("shfl.sync idx from the rotated lane"),
        note="by 3 in groups of 8 lanes"),
    Row("gpu.subgroup_broadcast",
        template="%{g}l = arith.constant 2 : i32\n"
                 "{r0} = gpu.subgroup_broadcast {a}, specific_lane %{g}l : i32\n"
                 "{r1} = gpu.subgroup_broadcast {a}, first_active_lane : i32",
        host_template=SGK +
                 "%{g}l = arith.remui {i}, %{g}sg : index\n"
                 "%{g}b = arith.subi {i}, %{g}l : index\n"
                 "%{g}c2 = arith.constant 2 : index\n"
                 "%{g}j = arith.addi %{g}b, %{g}c2 : index\n"
                 "{r0} = memref.load {A0}[%{g}j] : memref<{N}xi32>\n"
                 "{r1} = memref.load {A0}[%{g}b] : memref<{N}xi32>",
        signatures=[sig(["i32"], ["i32", "i32"])], uniform=True,
        inputs=GPU_INPUTS,
        vulkan=kiln("GroupNonUniformBroadcast / BroadcastFirst"),
        cuda=kiln("shfl.sync idx from the lane / the lowest active lane"),
        note="from lane 2 and from the first active lane"),
    Row("gpu.subgroup_reduce",
        template="{r} = gpu.subgroup_reduce add {a} : (i32) -> i32",
        host_template=subgroup_sum("arith.addi"),
        signatures=[sig(["i32"], ["i32"])], uniform=True, inputs=GPU_INPUTS,
        vulkan=kiln("GroupNonUniform*Reduce"),
        cuda=kiln("a butterfly of warp shuffles"),
        note="every operation and uniform: "
             "test/Integration/Vulkan/subgroup_reduce_ops.mlir"),
    Row("gpu.subgroup_reduce", name="gpu.subgroup_reduce (clustered)",
        template="{r} = gpu.subgroup_reduce maxsi {a} cluster(size = 4) : (i32) -> i32",
        host_template="%{g}c4 = arith.constant 4 : index\n"
                 "%{g}l = arith.remui {i}, %{g}c4 : index\n"
                 "%{g}b = arith.subi {i}, %{g}l : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}c2 = arith.constant 2 : index\n"
                 "%{g}c3 = arith.constant 3 : index\n"
                 "%{g}j1 = arith.addi %{g}b, %{g}c1 : index\n"
                 "%{g}j2 = arith.addi %{g}b, %{g}c2 : index\n"
                 "%{g}j3 = arith.addi %{g}b, %{g}c3 : index\n"
                 "%{g}x0 = memref.load {A0}[%{g}b] : memref<{N}xi32>\n"
                 "%{g}x1 = memref.load {A0}[%{g}j1] : memref<{N}xi32>\n"
                 "%{g}x2 = memref.load {A0}[%{g}j2] : memref<{N}xi32>\n"
                 "%{g}x3 = memref.load {A0}[%{g}j3] : memref<{N}xi32>\n"
                 "%{g}m1 = arith.maxsi %{g}x0, %{g}x1 : i32\n"
                 "%{g}m2 = arith.maxsi %{g}x2, %{g}x3 : i32\n"
                 "{r} = arith.maxsi %{g}m1, %{g}m2 : i32",
        signatures=[sig(["i32"], ["i32"])], uniform=True, inputs=GPU_INPUTS,
        vulkan=kiln("GroupNonUniform*Reduce ClusteredReduce where the target "
                    "env has GroupNonUniformClustered, else a butterfly of "
                    "shuffles within the cluster"),
        cuda=kiln("a butterfly of warp shuffles within the cluster"),
        note="clusters of 4 lanes"),
    Row("gpu.all_reduce",
        template="{r} = gpu.all_reduce add {a} {{}} : (i32) -> (i32)",
        host_template=K64 +
                 "%{g}l = arith.remui {i}, %{g}k : index\n"
                 "%{g}b = arith.subi {i}, %{g}l : index\n"
                 "%{g}e = arith.addi %{g}b, %{g}k : index\n"
                 "%{g}c1 = arith.constant 1 : index\n"
                 "%{g}z = arith.constant 0 : i32\n"
                 "{r} = scf.for %{g}j = %{g}b to %{g}e step %{g}c1 iter_args(%{g}s = %{g}z) -> (i32) {{\n"
                 "  %{g}x = memref.load {A0}[%{g}j] : memref<{N}xi32>\n"
                 "  %{g}y = arith.addi %{g}s, %{g}x : i32\n"
                 "  scf.yield %{g}y : i32\n}}",
        signatures=[sig(["i32"], ["i32"])], uniform=True, inputs=GPU_INPUTS,
        vulkan=kiln("a tree in workgroup memory (kiln-lower-all-reduce)"),
        cuda=kiln("a tree in workgroup memory (kiln-lower-all-reduce)"),
        note="and gpu.yield; every operation and size: "
             "test/Integration/Vulkan/all_reduce_ops.mlir"),
    Row("gpu.dynamic_shared_memory",
        template="%{g}m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>\n"
                 "%{g}c0 = arith.constant 0 : index\n"
                 "%{g}w = memref.view %{g}m[%{g}c0][] : memref<?xi8, #gpu.address_space<workgroup>> "
                 "to memref<64xi32, #gpu.address_space<workgroup>>\n"
                 "%{g}t = gpu.thread_id x\n"
                 "memref.store {a}, %{g}w[%{g}t] : memref<64xi32, #gpu.address_space<workgroup>>\n"
                 "gpu.barrier\n"
                 "%{g}k = arith.constant 63 : index\n"
                 "%{g}u = arith.subi %{g}k, %{g}t : index\n"
                 "{r} = memref.load %{g}w[%{g}u] : memref<64xi32, #gpu.address_space<workgroup>>",
        host_template=K64 +
                 "%{g}t = arith.remui {i}, %{g}k : index\n"
                 "%{g}b = arith.subi {i}, %{g}t : index\n"
                 "%{g}m = arith.constant 63 : index\n"
                 "%{g}e = arith.addi %{g}b, %{g}m : index\n"
                 "%{g}j = arith.subi %{g}e, %{g}t : index\n"
                 "{r} = memref.load {A0}[%{g}j] : memref<{N}xi32>",
        signatures=[sig(["i32"], ["i32"])], uniform=True, shared_bytes=256,
        vulkan=kiln("a Workgroup array sized by a specialization constant "
                    "the runtime sets at launch"),
        note="256 bytes given at launch, seen as 64 i32"),
    Row("gpu.func", name="gpu.func, gpu.return, gpu.terminator",
        template="{r} = arith.addi {a}, {a} : i32",
        signatures=[sig(["i32"], ["i32"])],
        note="every program: gpu.launch is outlined into a gpu.func"),
]

ROWS = (ARITH + MATH + INDEX + COMPLEX + VECTOR + MEMREF + SCF + CF + AFFINE +
        GPU)
