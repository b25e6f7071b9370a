#!/usr/bin/env python3
"""kiln-vulkan-runner's command line, ahead of time.

    kiln_aot_run.py FILE [kiln-vulkan-runner options]

Compiles FILE with `kiln-compile --emit=exe` and runs the executable, so that
a test written for the JIT runner checks the AOT path with the same RUN and
CHECK lines. Compile-time options (-e, --entry-point-result, -O, --target-env,
--use-64bit-index, --buffer-device-address) go to kiln-compile, run-time
options (--validate, --print-timing, --device) to the executable. An integer entry-point result is
the executable's exit status; this script checks that it matches the printed
value (modulo 256) and then exits 0, as the runner does.

test/bundle/make-bundle.py splits a test's runner options with split() too.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

COMPILE_VALUE = {"-e", "--entry-point-result", "--target-env",
                 "--buffer-device-address"}
COMPILE_FLAGS = {"--use-64bit-index"}
RUN_VALUE = {"--device"}
RUN_FLAGS = {"--validate", "--print-timing", "--robust-buffer-access"}


def normalize(arg):
    """-flag and --flag are the same to LLVM-style tools."""
    if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
        return "-" + arg
    return arg


def split(argv):
    """kiln-vulkan-runner's arguments as (source, kiln-compile options,
    executable options, entry-point result type). ValueError on an option
    with no AOT equivalent or a wrong number of inputs."""
    compile_args = []
    run_args = []
    source = None
    result = "void"
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = normalize(arg).partition("=")
        if name in COMPILE_VALUE or name in RUN_VALUE:
            if not eq:
                i += 1
                value = argv[i]
            (compile_args if name in COMPILE_VALUE else run_args).append(
                name + "=" + value)
            if name == "--entry-point-result":
                result = value
        elif name in COMPILE_FLAGS:
            compile_args.append(arg)
        elif name in RUN_FLAGS:
            run_args.append(arg)
        elif re.fullmatch(r"-O[0-3]", arg):
            compile_args.append(arg)
        elif arg.startswith("-") and arg != "-":
            raise ValueError("option '%s' has no AOT equivalent" % arg)
        elif source is None:
            source = arg
        else:
            raise ValueError("more than one input file")
        i += 1
    if source is None:
        raise ValueError("no input file")
    return source, compile_args, run_args, result


def main(argv):
    tools = os.path.dirname(os.path.abspath(shutil.which("kiln-compile") or ""))
    try:
        source, compile_args, run_args, result = split(argv)
    except ValueError as e:
        sys.exit("kiln-aot-run: %s" % e)
    # As the runner, compile for the device the program runs on unless the
    # test names a target env.
    if not any(a.startswith("--target-env=") for a in compile_args):
        compile_args.insert(0, "--target-env=device")

    work = tempfile.mkdtemp(prefix="kiln-aot-")
    try:
        exe = os.path.join(work, "program")
        status = subprocess.call(
            [os.path.join(tools, "kiln-compile"), source, "--emit=exe",
             "-o", exe] + compile_args)
        if status != 0:
            return status
        run = subprocess.run([exe] + run_args, stdout=subprocess.PIPE)
        sys.stdout.buffer.write(run.stdout)
        sys.stdout.flush()
        if result in ("i32", "i64") and run.returncode >= 0:
            lines = run.stdout.decode().strip().splitlines()
            printed = int(lines[-1]) if lines else None
            if printed is None or printed % 256 != run.returncode:
                sys.stderr.write("kiln-aot-run: exit status %d does not match "
                                 "the printed result %s\n"
                                 % (run.returncode, printed))
                return 1
            return 0
        return run.returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)



def run_with(name, runner, argv, dropped, extra=()):
    """Runs kiln-vulkan-runner's command line `argv` with another runner
    (kiln-cuda-runner, kiln-spirv-cpu-runner) that takes the same options,
    less those starting with one of `dropped`, plus `extra`. Returns its exit
    status; exits with a message from `name` on an option split() refuses."""
    try:
        source, compile_args, run_args, _ = split(argv)
    except ValueError as e:
        sys.exit("%s: %s" % (name, e))
    args = [a for a in compile_args + run_args if not a.startswith(dropped)]
    path = shutil.which(runner) or runner
    return subprocess.call([path, source] + args + list(extra))

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
