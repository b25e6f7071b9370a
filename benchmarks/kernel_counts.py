#!/usr/bin/env python3
"""Instruction counts of kiln-bench's kernels beside their references.

    python3 benchmarks/kernel_counts.py [--build DIR] [--markdown]
                                        [--check FILE] [--write FILE]

For each kernel of benchmarks/kernels, counts what its SPIR-V (from the
container kiln-bench embeds) and its PTX do per entry point, next to glslc's
SPIR-V of the GLSL reference and, when nvcc is found, nvcc's PTX of the CUDA
reference:

  SPIR-V: loads, stores, access chains, arithmetic (integer, float and
          GLSL.std.450 instructions), and all instructions of the function;
          loads and stores of vectors are counted again in brackets.
  PTX:    global loads and stores (vector ones in brackets), shared loads
          and stores, fma, other arithmetic, all instructions, and, with
          ptxas, the registers and spilled bytes of the entry (sm_90).

Counts show regressions without timing: --write FILE records Kiln's counts,
--check FILE fails (exit 1) when any of Kiln's counts is above the recorded
one, naming the kernel and the count (the lit suite runs it against
benchmarks/kernel-counts.json). The build directory is the one kiln-bench
was built in (default: build).
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# kernel: (Kiln module, Kiln function, GLSL module, CUDA source, CUDA function)
KERNELS = []
for t in ("f32", "f64"):
    for k in ("copy", "mul", "add", "triad", "dot"):
        KERNELS.append(("stream_%s_%s" % (k, t), "stream_" + t, k,
                        "stream_%s_%s" % (k, t), "stream", "%s_%s" % (k, t)))
for k in ("workgroup", "subgroup"):
    KERNELS.append(("reduce_" + k, "reduce", "sum_" + k, "reduce_" + k,
                    "reduce", "sum_" + k))
KERNELS.append(("transpose", "transpose", "transpose", "transpose",
                "transpose", "transpose"))
for k in ("naive", "tiled", "register"):
    KERNELS.append(("sgemm_" + k, "sgemm", k, "sgemm_" + k, "sgemm",
                    "sgemm_" + k))
KERNELS.append(("fma_chain", "fma", "fma_chain", "fma", "fma", "fma_chain"))
KERNELS.append(("empty", "empty", "empty", "empty", "fma", "empty"))

SPIRV_ARITH = {
    "OpIAdd", "OpISub", "OpIMul", "OpSDiv", "OpUDiv", "OpSRem", "OpSMod",
    "OpUMod", "OpShiftLeftLogical", "OpShiftRightLogical",
    "OpShiftRightArithmetic", "OpBitwiseAnd", "OpBitwiseOr", "OpBitwiseXor",
    "OpNot", "OpSNegate", "OpFAdd", "OpFSub", "OpFMul", "OpFDiv",
    "OpFNegate", "OpFMod", "OpFRem", "OpExtInst", "OpDot",
    "OpVectorTimesScalar", "OpIAddCarry", "OpISubBorrow"}
SPIRV_CHAINS = {"OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain",
                "OpInBoundsPtrAccessChain"}
PTX_ARITH = re.compile(
    r"^(add|sub|mul|mad|div|rem|neg|abs|min|max|shl|shr|and|or|xor|not|"
    r"sqrt|rsqrt|rcp|ex2|lg2|sin|cos|cvt)\b")

COLUMNS_SPIRV = ("loads", "stores", "chains", "arith", "total")
COLUMNS_PTX = ("ld.global", "st.global", "ld.shared", "st.shared", "fma",
               "arith", "total", "registers", "spill")


def die(message):
    print("kernel_counts.py: " + message, file=sys.stderr)
    sys.exit(2)


def container_spirv(path):
    """The SPIR-V words at the end of a Kiln container (docs/abi.md)."""
    data = open(path, "rb").read()
    magic, version, _bits, _kernels, words = struct.unpack_from("<5I", data)
    if magic != 0x4E4C494B:
        die("%s is not a Kiln container" % path)
    return data[len(data) - 4 * words:]


MEMORY_CLASSES = {"StorageBuffer", "Workgroup", "PhysicalStorageBuffer",
                  "Uniform"}


def spirv_functions(binary):
    """{entry point: [(opcode, is a vector load from memory), ...]} from
    spirv-dis."""
    with tempfile.NamedTemporaryFile(suffix=".spv") as f:
        f.write(binary)
        f.flush()
        text = subprocess.run(["spirv-dis", "--raw-id", f.name], check=True,
                              capture_output=True, text=True).stdout
    entries, kinds, classes, type_of = {}, {}, {}, {}
    for line in text.splitlines():
        m = re.match(r"\s*OpEntryPoint \w+ (%\d+) \"(\w+)\"", line)
        if m:
            entries[m.group(1)] = m.group(2)
        m = re.match(r"\s*(%\d+) = (OpType\w+)(?: (\w+))?", line)
        if m:
            kinds[m.group(1)] = m.group(2)
            if m.group(2) == "OpTypePointer":
                classes[m.group(1)] = m.group(3)
        m = re.match(r"\s*(%\d+) = Op\w+ (%\d+)", line)
        if m:
            type_of[m.group(1)] = m.group(2)
    functions, current = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*(%\d+) = OpFunction ", line)
        if m:
            current = entries.get(m.group(1), m.group(1))
            functions[current] = []
            continue
        if current is None:
            continue
        if "OpFunctionEnd" in line:
            current = None
            continue
        m = re.match(r"\s*(?:%\d+ = )?(Op\w+)(?: (%\d+))?(?: (%\d+))?", line)
        if not m:
            continue
        vector_load = False
        if m.group(1) == "OpLoad":
            pointer_class = classes.get(type_of.get(m.group(3), ""), "")
            vector_load = (kinds.get(m.group(2)) == "OpTypeVector" and
                           pointer_class in MEMORY_CLASSES)
        functions[current].append((m.group(1), vector_load))
    return functions


def count_spirv(instructions):
    c = dict.fromkeys(COLUMNS_SPIRV, 0)
    c["vector loads"] = 0
    for op, vector_load in instructions:
        if op == "OpLabel":
            continue
        c["total"] += 1
        if op == "OpLoad":
            c["loads"] += 1
            c["vector loads"] += vector_load
        elif op == "OpStore":
            c["stores"] += 1
        elif op in SPIRV_CHAINS:
            c["chains"] += 1
        elif op in SPIRV_ARITH:
            c["arith"] += 1
    return c


def ptx_entries(text):
    """{entry: [instruction, ...]} of a PTX file."""
    entries, current, depth = {}, None, 0
    for line in text.splitlines():
        m = re.match(r"\s*\.(?:visible\s+)?\.entry\s+(\w+)", line)
        if m:
            current, depth = m.group(1), 0
            entries[current] = []
            continue
        if current is None:
            continue
        depth += line.count("{") - line.count("}")
        s = line.strip()
        if s == "}" and depth <= 0:
            current = None
            continue
        if not s or s.startswith((".", "//", "$", "{", "}")) or not s.endswith(";"):
            continue
        s = re.sub(r"^@!?%\w+\s+", "", s)
        entries[current].append(s)
    return entries


def count_ptx(instructions):
    c = dict.fromkeys(COLUMNS_PTX, 0)
    c["vector ld.global"] = c["vector st.global"] = 0
    for s in instructions:
        op = s.split()[0]
        c["total"] += 1
        for space in ("global", "shared"):
            for kind in ("ld", "st"):
                if re.match(r"%s(\.\w+)*\.%s\b" % (kind, space), op) or \
                   op.startswith("%s.%s" % (kind, space)):
                    c["%s.%s" % (kind, space)] += 1
                    if space == "global" and re.search(r"\.v[24]\b", op):
                        c["vector %s.global" % kind] += 1
        if op.startswith("fma."):
            c["fma"] += 1
        elif PTX_ARITH.match(op):
            c["arith"] += 1
    return c


def ptxas_resources(ptx_path, chip):
    """{entry: (registers, spilled bytes)} from ptxas -v, or {}."""
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        return {}
    out = subprocess.run([ptxas, "-arch=" + chip, "-v", ptx_path, "-o",
                          os.devnull], capture_output=True, text=True)
    result, current = {}, None
    for line in (out.stderr + out.stdout).splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and current:
            spill = int(m.group(1)) + int(m.group(2))
            result.setdefault(current, [0, 0])[1] = spill
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            result.setdefault(current, [0, 0])[0] = int(m.group(1))
    return result


def nvcc_ptx(source, chip, tmp):
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc):
        return None
    out = os.path.join(tmp, os.path.basename(source) + ".ptx")
    if not os.path.exists(out):
        subprocess.run([nvcc, "--ptx", "-O3", "-arch=" + chip, source, "-o",
                        out], check=True, capture_output=True)
    return out


def collect(build, chip, references):
    """Kiln's counts per kernel; with `references`, also glslc's and nvcc's
    and ptxas's registers and spills (what only the markdown tables show)."""
    bench = os.path.join(build, "benchmarks", "kiln-bench")
    if not os.path.isdir(bench):
        die("no %s: build kiln-bench first" % bench)
    rows = {}
    spirv_cache, ptx_cache, res_cache = {}, {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, module, function, glsl, cu, cuda_fn in KERNELS:
            row = rows.setdefault(name, {})
            if module not in spirv_cache:
                spirv_cache[module] = spirv_functions(container_spirv(
                    os.path.join(bench, "vulkan", module + ".kiln")))
            row["kiln spirv"] = count_spirv(spirv_cache[module][function])
            glsl_path = os.path.join(bench, "glsl", glsl + ".spv")
            if references and os.path.exists(glsl_path):
                fns = spirv_functions(open(glsl_path, "rb").read())
                row["glslc spirv"] = count_spirv(fns["main"])
            def ptx_counts(path, entry):
                if path not in ptx_cache:
                    ptx_cache[path] = ptx_entries(open(path).read())
                    res_cache[path] = (ptxas_resources(path, chip)
                                       if references else {})
                counts = count_ptx(ptx_cache[path][entry])
                regs = res_cache[path].get(entry)
                if regs:
                    counts["registers"], counts["spill"] = regs
                return counts

            ptx_dir = os.path.join(bench, "cuda", module)
            row["kiln ptx"] = ptx_counts(
                os.path.join(ptx_dir, os.listdir(ptx_dir)[0]), function)
            source = os.path.join(ROOT, "benchmarks", "cuda", cu + ".cu")
            nv = nvcc_ptx(source, chip, tmp) if references else None
            if nv:
                row["nvcc ptx"] = ptx_counts(nv, cuda_fn)
    return rows


def cell(counts, key, vector_key=None):
    if counts is None:
        return "-"
    text = str(counts[key])
    if vector_key and counts.get(vector_key):
        text += " (%d v)" % counts[vector_key]
    return text


def markdown(rows):
    lines = ["SPIR-V per entry point, Kiln / glslc (loads of vectors from "
             "buffers and workgroup memory in brackets):", "",
             "| kernel | loads | stores | access chains | arithmetic | "
             "instructions |", "| --- | --- | --- | --- | --- | --- |"]
    for name, row in rows.items():
        k, g = row["kiln spirv"], row.get("glslc spirv")
        lines.append("| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |" % (
            name, cell(k, "loads", "vector loads"),
            cell(g, "loads", "vector loads"), cell(k, "stores"),
            cell(g, "stores"), cell(k, "chains"), cell(g, "chains"),
            cell(k, "arith"), cell(g, "arith"), cell(k, "total"),
            cell(g, "total")))
    lines += ["", "PTX per entry (sm_90), Kiln / nvcc (vector accesses in "
              "brackets; registers and spilled bytes from ptxas -v):", "",
              "| kernel | ld.global | st.global | ld.shared | st.shared | "
              "fma | other arithmetic | instructions | registers | spill |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, row in rows.items():
        k, n = row["kiln ptx"], row.get("nvcc ptx")
        lines.append("| %s | %s |" % (name, " | ".join(
            "%s / %s" % (cell(k, c, v), cell(n, c, v)) for c, v in (
                ("ld.global", "vector ld.global"),
                ("st.global", "vector st.global"), ("ld.shared", None),
                ("st.shared", None), ("fma", None), ("arith", None),
                ("total", None), ("registers", None), ("spill", None)))))
    return "\n".join(lines)


def kiln_counts(rows):
    """Kiln's counts only, for --write and --check (registers and spills
    depend on the ptxas version and are left out)."""
    out = {}
    for name, row in rows.items():
        out[name] = {"spirv": {c: row["kiln spirv"][c] for c in COLUMNS_SPIRV},
                     "ptx": {c: row["kiln ptx"][c] for c in COLUMNS_PTX
                             if c not in ("registers", "spill")}}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--write")
    parser.add_argument("--check")
    args = parser.parse_args()
    rows = collect(args.build, args.chip, references=args.markdown)
    if args.markdown:
        print(markdown(rows))
    counts = kiln_counts(rows)
    if args.write:
        with open(args.write, "w") as f:
            json.dump(counts, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.check:
        recorded = json.load(open(args.check))
        grew = []
        for name, kinds in counts.items():
            for kind, values in kinds.items():
                for column, value in values.items():
                    before = recorded.get(name, {}).get(kind, {}).get(column)
                    if before is None:
                        grew.append("%s %s %s: %d, not recorded" % (
                            name, kind, column, value))
                    elif value > before:
                        grew.append("%s %s %s: %d, was %d" % (
                            name, kind, column, value, before))
        for g in grew:
            print("grew: " + g)
        if grew:
            print("kernel_counts.py: %d counts grew against %s; if that is "
                  "meant, record them again with --write" % (
                      len(grew), args.check))
            return 1
        print("kernel_counts.py: no count grew (%d kernels)" % len(counts))
    if not args.markdown and not args.write and not args.check:
        print(json.dumps(counts, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
