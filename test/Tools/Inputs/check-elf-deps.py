#!/usr/bin/env python3
"""Checks what an executable from kiln-compile --emit=exe needs at run time.

    check-elf-deps.py EXE [--no-libstdcxx]

From the ELF dynamic section and version needs (llvm-readelf): only libc,
libm, libstdc++ (unless --no-libstdcxx), the dynamic loader and
libvulkan.so.1 may be needed; no LLVM or MLIR library, no RPATH/RUNPATH; no
glibc symbol newer than 2.36 (Debian 12's), so that it runs on that
distribution and every newer one. Prints what it found.
"""

import re
import subprocess
import sys

ALLOWED = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libvulkan.so.1",
           "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}
MAX_GLIBC = (2, 36)


def main(argv):
    exe = argv[0]
    allowed = set(ALLOWED)
    if "--no-libstdcxx" in argv:
        allowed.discard("libstdc++.so.6")
    dynamic = subprocess.run(["llvm-readelf", "--dynamic-table", exe],
                             capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    errors = []
    for lib in needed:
        print("needed:", lib)
        if lib not in allowed:
            errors.append("needs %s" % lib)
    if re.search(r"\((RPATH|RUNPATH)\)", dynamic):
        errors.append("has an RPATH or RUNPATH")
    versions = subprocess.run(["llvm-readelf", "--version-info", exe],
                              capture_output=True, text=True,
                              check=True).stdout
    glibc = sorted({tuple(int(x) for x in v.split("."))
                    for v in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", versions)})
    if glibc:
        print("newest glibc symbol version: %s" % ".".join(map(str, glibc[-1])))
        if glibc[-1][:2] > MAX_GLIBC:
            errors.append("needs GLIBC_%s" % ".".join(map(str, glibc[-1])))
    for error in errors:
        print("error: %s %s" % (exe, error))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
