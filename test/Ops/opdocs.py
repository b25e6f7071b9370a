"""docs/ops.md from the op table (optable.py): `opcheck.py --write-docs`.

The page is generated; the test suite fails when it differs from what the
table says (test/Ops, docs-ops.md).
"""

from opcheck import TARGETS

HEADER = """# Ops in kernels, per target

<!-- Generated from test/Ops/optable.py by
     `python3 test/Ops/opcheck.py --write-docs docs/ops.md`; the test suite
     fails when this page and the table differ. -->

Every op of `arith`, `math`, `index`, `vector`, `memref`, `gpu`, `scf`,
`cf`, `complex` and `affine` that a kernel may hold, and what each target
does with it:

- **lowered**: MLIR's own pattern turns it into the target's instructions;
- **Kiln's lowering**: Kiln's own pattern does, where MLIR 22 has none or
  computes a wrong value (the reason is given);
- **expanded**: the op is rewritten before the conversion in terms of ops
  the target has (`kiln-expand-kernel-ops`, or the pass named);
- **refused**: the op is reported at its location with the reason, and the
  program does not compile for that target.

Each row is a test (`lit build/test/Ops`, or
`python3 test/Ops/opcheck.py --run OP`): the op is applied in a kernel to
the edge values of each signature listed (zero, one, minus one, the
extremes of integers; signed zeros, infinities, NaN, denormals, the largest
and smallest normals and halfway cases of floats; undefined inputs left
out), and in the same program by the host through MLIR's LLVM path; the
results must be equal, bit for bit for integers and to the tolerance given
for floats (any NaN for a NaN, a zero of the right sign). On Vulkan a
result may also be what the host computes with denormals flushed to zero,
which Vulkan allows. Tolerances on Vulkan are Vulkan's own precision
requirements for SPIR-V instructions, so that a row holds on every
conformant driver. A refused row is checked to be refused with its reason.
Without a device a target is compiled only (CUDA to PTX).

`spirv-cpu` is the same SPIR-V as Vulkan, run on the CPU
(docs/spirv-cpu.md); it differs from Vulkan only where a row says so.
NaNs, infinities and signed zeros are kept on Vulkan where the device
allows it (`SignedZeroInfNanPreserve`; `--fast-math` lets the driver drop
them, and the tolerances then no longer hold).

"""

DIALECTS = ["arith", "math", "index", "vector", "memref", "gpu", "scf", "cf",
            "complex", "affine"]


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def render(rows):
    out = [HEADER]
    counts = {}
    for r in rows:
        counts.setdefault(r.dialect, 0)
        counts[r.dialect] += 1
    out.append("| dialect | rows |\n| --- | --- |\n")
    for d in DIALECTS:
        out.append("| [%s](#%s) | %d |\n" % (d, d, counts.get(d, 0)))
    out.append("\n")
    for d in DIALECTS:
        out.append("## %s\n\n" % d)
        out.append("| op | Vulkan | spirv-cpu | CUDA | tested with | "
                   "tolerance |\n")
        out.append("| --- | --- | --- | --- | --- | --- |\n")
        for r in rows:
            if r.dialect != d:
                continue
            statuses = []
            for t in TARGETS:
                st = r.status[t]
                if t == "spirv-cpu" and st is r.status["vulkan"]:
                    statuses.append("as Vulkan")
                else:
                    statuses.append(cell(st.cell()))
            sigs = "; ".join(
                "(%s) -> %s" % (", ".join(t.text for t in ops),
                                ", ".join(t.text for t in res))
                for ops, res in r.signatures)
            if r.note:
                sigs += " — " + r.note
            tols = [r.tol.describe()]
            if r.vulkan_tol:
                tols.append("Vulkan: " + r.vulkan_tol.describe())
            if r.cuda_tol:
                tols.append("CUDA: " + r.cuda_tol.describe())
            out.append("| `%s` | %s | %s | %s | %s | %s |\n" % (
                r.name, statuses[0], statuses[1], statuses[2], cell(sigs),
                cell("; ".join(tols))))
        out.append("\n")
    return "".join(out)
