#!/usr/bin/env python3
"""Builds Kiln's portable test bundle: `ninja -C build kiln-bundle`.

    make-bundle.py --build-dir BUILD [--out DIR] [--target-env desktop]
                   [--target vulkan|cuda] [--chip sm_90]

Every test of test/Integration/Vulkan is compiled ahead of time into one
static executable (kiln-compile --emit=exe --static-cxx-runtime --strip, for
the `desktop` target env, so that the same files run on lavapipe and on
desktop GPUs). Its expected output is recorded by running the same test with
kiln-vulkan-runner (the JIT path) on this machine's Vulkan device, and that
output is first checked against the test's own CHECK lines with FileCheck, so
the bundle never records a wrong answer. The folder then needs only POSIX sh,
awk and the GPU driver (with the Vulkan loader) to run: see README in it.

With --target cuda (`ninja -C build kiln-bundle-cuda`, into kiln-bundle-cuda)
the same tests are compiled for CUDA instead (--chip, default sm_90, kernels
as a fatbin with the chip's SASS and PTX), against the same expected outputs
recorded on Vulkan: the bundle then checks that the kernels give the same
results on both, and needs only the NVIDIA driver to run.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
# Each test is a static executable of about 330 KiB (mostly the runtime); the
# device kit carries both bundles with the units and the Vulkan loader, and
# what travels to a GPU machine is limited to 64 MiB in all (about 46 MiB
# with a full bundle and the loader).
LIMIT_MIB = 30
LIMIT_BYTES = LIMIT_MIB * 1024 * 1024

# The AOT lit suite's split of runner options into kiln-compile's and the
# executable's.
sys.path.insert(0, os.path.join(SOURCE_ROOT, "test", "Integration", "AOT",
                                "Inputs"))
import kiln_aot_run  # noqa: E402


class BundleError(Exception):
    pass


def runner_command(test):
    """The kiln-vulkan-runner arguments of `test`'s RUN line."""
    with open(test) as f:
        text = f.read()
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s*(.*)", line)
        if m and "kiln-vulkan-runner" in m.group(1):
            command = m.group(1).split("|")[0]
            command = command.replace("%kiln_src_root", SOURCE_ROOT)
            command = command.replace("%S", os.path.dirname(test))
            command = command.replace("%s", test)
            # Redirections (2>&1) are the shell's, not the runner's.
            words = [w for w in shlex.split(command)
                     if not re.match(r"^\d*>", w)]
            return words[words.index("kiln-vulkan-runner") + 1:], text
    raise BundleError("%s: no kiln-vulkan-runner RUN line" % test)


def bundle_one(test, args):
    name = os.path.splitext(os.path.basename(test))[0]
    runner_args, text = runner_command(test)
    try:
        source, compile_args, run_args, result = kiln_aot_run.split(
            runner_args)
    except ValueError as e:
        raise BundleError("%s: %s" % (name, e))
    # The bundle chooses the target env; run-all --validate turns validation
    # on for every test.
    compile_args = [a for a in compile_args
                    if not a.startswith("--target-env=")]
    run_args = [a for a in run_args if a != "--validate"]
    # A test whose expected values hold only for one subgroup size says so:
    #   // kiln-bundle subgroup_size=8
    # It is compiled for lavapipe's target env and run only on a device with
    # that subgroup size.
    requires = "-"
    target_env = args.target_env
    m = re.search(r"//\s*kiln-bundle\s+(subgroup_size=\d+)", text)
    if m:
        requires = m.group(1)
        target_env = "lavapipe"
    # A test that needs a capability the desktop env leaves out says so:
    #   // kiln-bundle capability=AtomicFloat32AddEXT
    # It is compiled for lavapipe's target env (which has it) and run only on
    # a device whose target env has it.
    m = re.search(r"//\s*kiln-bundle\s+(capability=\w+)", text)
    if m:
        requires = m.group(1)
        target_env = "lavapipe"
    # A test whose lines come in no fixed order (what kernels print) says
    #   // kiln-bundle sorted
    # and its output is compared sorted.
    sort_output = re.search(r"//\s*kiln-bundle\s+sorted\b", text) is not None
    if sort_output:
        requires = "sorted"
    tools = os.path.join(args.build_dir, "bin")
    exe = os.path.join(args.out, "bin", name)
    compile_cmd = [os.path.join(tools, "kiln-compile"), source, "--emit=exe",
                   "--static-cxx-runtime", "--strip", "-o", exe]
    if args.target == "cuda":
        compile_cmd += ["--target=cuda", "--chip=" + args.chip,
                        "--format=fatbin"]
        compile_cmd += [a for a in compile_args
                        if not a.startswith("--use-64bit-index")]
    else:
        compile_cmd += ["--target-env=" + target_env] + compile_args
    done = subprocess.run(compile_cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise BundleError("%s: kiln-compile failed:\n%s" % (name, done.stderr))

    jit_cmd = [os.path.join(tools, "kiln-vulkan-runner"), source,
               "--target-env=" + target_env] + compile_args + run_args
    jit = subprocess.run(jit_cmd, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL)
    if jit.returncode != 0:
        raise BundleError("%s: kiln-vulkan-runner failed (the expected output "
                          "is recorded on this machine's Vulkan device; "
                          "lavapipe will do):\n%s" % (name, jit.stderr))
    if sort_output:
        jit.stdout = "".join(sorted(jit.stdout.splitlines(keepends=True)))
    check = subprocess.run([args.filecheck, test], input=jit.stdout,
                           capture_output=True, text=True)
    if check.returncode != 0:
        raise BundleError("%s: the runner's output fails the test's CHECK "
                          "lines:\n%s" % (name, check.stderr))
    status = 0
    if result in ("i32", "i64"):
        status = int(jit.stdout.strip().splitlines()[-1]) % 256
    with open(os.path.join(args.out, "expected", name + ".out"), "w") as f:
        f.write(jit.stdout)
    return "%s %d %s %s" % (name, status, requires, " ".join(run_args))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--out", help="default: BUILD/kiln-bundle")
    parser.add_argument("--target-env", default="desktop")
    parser.add_argument("--target", choices=("vulkan", "cuda"),
                        default="vulkan")
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--filecheck", default="FileCheck")
    parser.add_argument("--tests", default=os.path.join(
        SOURCE_ROOT, "test", "Integration", "Vulkan"))
    args = parser.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.out = os.path.abspath(args.out or os.path.join(
        args.build_dir,
        "kiln-bundle" + ("-cuda" if args.target == "cuda" else "")))
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    for sub in ("bin", "expected"):
        os.makedirs(os.path.join(args.out, sub))
    for f in ("run-all", "compare.awk", "README"):
        shutil.copy(os.path.join(HERE, f), args.out)
    os.chmod(os.path.join(args.out, "run-all"), 0o755)
    with open(os.path.join(args.out, "target"), "w") as f:
        f.write(args.target + "\n")

    tests = sorted(os.path.join(args.tests, t) for t in os.listdir(args.tests)
                   if t.endswith(".mlir"))
    if args.target == "cuda":
        # What only Vulkan has (as in the lit CUDA suite).
        tests = [t for t in tests
                 if "kiln-cuda-suite: vulkan only" not in open(t).read()]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        futures = [pool.submit(bundle_one, t, args) for t in tests]
        try:
            lines = [f.result() for f in futures]
        except BundleError as e:
            sys.stderr.write("make-bundle: %s\n" % e)
            return 1
    with open(os.path.join(args.out, "tests.list"), "w") as f:
        f.write("\n".join(lines) + "\n")

    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(args.out) for f in files)
    print("kiln-bundle: %d tests, %.1f MiB in %s"
          % (len(lines), size / 1048576.0, args.out))
    if size > LIMIT_BYTES:
        sys.stderr.write("make-bundle: the bundle is %d bytes, above the "
                         "%d MiB it must fit in\n" % (size, LIMIT_MIB))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
