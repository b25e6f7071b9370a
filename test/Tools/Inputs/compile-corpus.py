#!/usr/bin/env python3
"""Compiles every kernel of test/Corpus ahead of time.

    compile-corpus.py CORPUS_DIR OUT_DIR

Each corpus file whose first kiln-compile RUN line expects success is
compiled again with --emit=obj (and the same --target-env), which lowers the
host too and runs LLVM's code generation; each must give a non-empty object.
Files whose RUN line starts with `not` are negative tests and are skipped.
Prints one line per file and a summary; exits 1 on any failure.
"""

import os
import re
import subprocess
import sys


def main(corpus, out):
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
        obj = os.path.join(out, name[:-5] + ".o")
        cmd = ["kiln-compile", path, "--emit=obj", "-o", obj]
        if env:
            cmd.append("--target-env=" + env.group(1))
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not os.path.getsize(obj):
            failed += 1
            print("FAIL %s\n%s" % (name, done.stderr))
        else:
            compiled += 1
            print("ok %s" % name)
    print("%d compiled, %d failed" % (compiled, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
