#!/usr/bin/env python3
"""Compiles every kernel of test/Corpus ahead of time.

    compile-corpus.py CORPUS_DIR OUT_DIR [kiln-compile options...]

Each corpus file whose first kiln-compile RUN line expects success is
compiled again, by default with --emit=obj (and the same --target-env), which
lowers the host too and runs LLVM's code generation; each must give a
non-empty output. Extra options replace the default: `--target=cuda
--emit=ptx --chip=sm_80` compiles the corpus for CUDA instead (a directory
per kernel with one file per GPU module).
Files whose RUN line starts with `not` are negative tests and are skipped.
Prints one line per file and a summary; exits 1 on any failure.
"""

import os
import re
import subprocess
import sys


def main(corpus, out, extra):
    cuda = "--target=cuda" in extra
    emit = next((a.split("=", 1)[1] for a in extra if a.startswith("--emit=")),
                "obj")
    os.makedirs(out, exist_ok=True)
    compiled = failed = 0
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".mlir"):
            continue
        path = os.path.join(corpus, name)
        with open(path) as f:
            runs = [m.group(1) for m in
                    re.finditer(r"^// RUN: (.*)$", f.read(), re.M)]
        first = next((r for r in runs if "kiln-compile" in r), None)
        if first is None or first.startswith("not "):
            continue
        env = re.search(r"--target-env=(\S+)", first)
        obj = os.path.join(out, name[:-5] + ("" if emit in ("ptx", "cubin")
                                             else "." + emit))
        cmd = ["kiln-compile", path, "-o", obj] + (extra or ["--emit=obj"])
        if env and not cuda:
            cmd.append("--target-env=" + env.group(1))
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not output_size(obj):
            failed += 1
            print("FAIL %s\n%s" % (name, done.stderr))
        else:
            compiled += 1
            print("ok %s" % name)
    print("%d compiled, %d failed" % (compiled, failed))
    return 1 if failed else 0


def output_size(path):
    """Bytes written: the file, or every file of the directory."""
    if os.path.isdir(path):
        files = [os.path.join(path, f) for f in os.listdir(path)]
        if not files:
            return 0
        return min(os.path.getsize(f) for f in files)
    return os.path.getsize(path) if os.path.exists(path) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
