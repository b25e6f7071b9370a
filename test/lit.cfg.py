# -*- Python -*-
# Kiln's lit configuration.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
# The AOT suite (build/test-aot) runs the Vulkan integration tests again, each
# compiled by kiln-compile --emit=exe instead of JIT-compiled by the runner:
# the same RUN and CHECK lines hold for both.
# The CUDA suite (build/test-cuda) runs them on an NVIDIA GPU through
# kiln-cuda-runner: the same kernels must give the same results there.
kiln_suite = getattr(config, "kiln_suite", "main")
if kiln_suite == "aot":
    config.name = "Kiln-AOT"
    config.test_source_root = os.path.join(os.path.dirname(__file__),
                                           "Integration", "Vulkan")
    config.test_exec_root = os.path.join(config.kiln_obj_root, "test-aot")
elif kiln_suite == "cuda":
    config.name = "Kiln-CUDA"
    config.test_source_root = os.path.join(os.path.dirname(__file__),
                                           "Integration", "Vulkan")
    config.test_exec_root = os.path.join(config.kiln_obj_root, "test-cuda")
elif kiln_suite == "spirv-cpu":
    config.name = "Kiln-SPIRV-CPU"
    config.test_source_root = os.path.join(os.path.dirname(__file__),
                                           "Integration", "Vulkan")
    config.test_exec_root = os.path.join(config.kiln_obj_root,
                                         "test-spirv-cpu")
else:
    config.name = "Kiln"
    config.test_source_root = os.path.dirname(__file__)
    config.test_exec_root = os.path.join(config.kiln_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "unittests", "Inputs"]

llvm_config.use_default_substitutions()
config.substitutions.append(("%kiln_src_root", config.kiln_src_root))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.kiln_tools_dir, append_path=True)

# Integration tests run kernels on a Vulkan device (lavapipe when there is no
# GPU); they need a working loader and driver.
import re
import subprocess
runner = os.path.join(config.kiln_tools_dir, "kiln-vulkan-runner")
if os.path.exists(runner):
    try:
        probe = subprocess.run([runner, "--list-devices"], capture_output=True,
                               timeout=60)
        if probe.returncode == 0:
            config.available_features.add("vulkan-runner")
            # Every device a CPU (lavapipe): the one kiln-bench
            # --count-instructions counts on by default.
            types = re.findall(r"type: (\w+)", probe.stdout.decode())
            if types and all(t == "CPU" for t in types):
                config.available_features.add("vulkan-cpu-only")
        else:
            lit_config.note("no Vulkan device; integration tests are "
                            "unsupported: " + probe.stderr.decode().strip())
    except (OSError, subprocess.TimeoutExpired) as e:
        lit_config.note("kiln-vulkan-runner --list-devices failed: %s" % e)

# CUDA: what needs the toolkit's ptxas (cubin, fatbin, libdevice) runs where
# Kiln itself finds one (kiln-compile --print-cuda-toolkit, the same search as
# the pipeline); what needs a GPU runs where kiln-cuda-runner sees a device.
# Both are noted when missing.
cuda_toolkit = None
kiln_compile = os.path.join(config.kiln_tools_dir, "kiln-compile")
if os.path.exists(kiln_compile):
    probe = subprocess.run([kiln_compile, "--print-cuda-toolkit"],
                           capture_output=True, text=True, timeout=60)
    for line in probe.stdout.splitlines():
        if line.startswith("root: "):
            cuda_toolkit = line[len("root: "):]
if cuda_toolkit:
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_toolkit", cuda_toolkit))
else:
    lit_config.note("no CUDA toolkit (ptxas); cubin and fatbin tests are "
                    "unsupported")
cuda_runner = os.path.join(config.kiln_tools_dir, "kiln-cuda-runner")
if os.path.exists(cuda_runner):
    try:
        probe = subprocess.run([cuda_runner, "--list-devices"],
                               capture_output=True, timeout=60)
        if probe.returncode == 0:
            config.available_features.add("cuda-device")
        else:
            lit_config.note("no CUDA device; CUDA run tests are unsupported: " +
                            probe.stderr.decode().strip())
    except (OSError, subprocess.TimeoutExpired) as e:
        lit_config.note("kiln-cuda-runner --list-devices failed: %s" % e)
config.substitutions.append(("%fake_cuda_driver", config.fake_cuda_driver))

# kiln-bench --plot draws with gnuplot (gnuplot-nox, installed by
# scripts/install-deps.sh).
import shutil
# The spirv-cpu target's debug info is checked in gdb where there is one.
if shutil.which("gdb"):
    config.available_features.add("gdb")
# kiln-bench --count-instructions runs under valgrind's callgrind; not
# in a sanitizer build, which valgrind cannot run.
if shutil.which("valgrind") and not getattr(config, "kiln_sanitize", False):
    config.available_features.add("valgrind")
else:
    lit_config.note("no valgrind (or a sanitizer build); the shader "
                    "instruction count tests are unsupported")
if shutil.which("gnuplot"):
    config.available_features.add("gnuplot")
else:
    lit_config.note("no gnuplot; the kiln-bench --plot test is unsupported")
for var in ["CUDA_PATH", "KILN_CUDA_DEVICE", "KILN_CUDA_PREFIXES"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Programs with MPI run under Open MPI's mpirun (openmpi-bin, installed by
# scripts/install-deps.sh): %mpirun starts ranks on this one machine, more
# than it has cores if asked, as root where the tests run as root, and
# without the single-copy mechanism that containers without ptrace lack.
# MPICH's launcher, where installed, runs the --mpi=mpich tests.
mpirun = shutil.which("mpirun.openmpi") or shutil.which("mpirun")
if mpirun:
    config.available_features.add("mpi")
    flags = ["--oversubscribe"]
    if os.geteuid() == 0:
        flags.append("--allow-run-as-root")
    config.substitutions.append(
        ("%mpirun", "env OMPI_MCA_btl_vader_single_copy_mechanism=none "
         "OMPI_MCA_rmaps_base_oversubscribe=1 %s %s" % (mpirun,
                                                        " ".join(flags))))
else:
    lit_config.note("no mpirun (openmpi-bin); the MPI tests are unsupported")
mpirun_mpich = shutil.which("mpirun.mpich")
if mpirun_mpich:
    config.available_features.add("mpich")
    config.substitutions.append(("%mpich_mpirun", mpirun_mpich))
# Results must not depend on the device the developer happens to have when
# a test names one; by default the runtime's own choice is used.
for var in ["KILN_VULKAN_DEVICE", "VK_ICD_FILENAMES", "VK_DRIVER_FILES",
            "VK_LAYER_PATH", "VK_ADD_LAYER_PATH", "HOME", "XDG_RUNTIME_DIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.substitutions.append(("%kiln_lib_dir", config.kiln_lib_dir))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
if getattr(config, "kiln_sanitize", False):
    # A sanitizer build (scripts/test.sh --sanitize): Kiln's code is built
    # with ASan and UBSan. Leaks are not checked (the driver and LLVM keep
    # objects until exit); an uninstrumented mlir-runner loads the runtime
    # only with the ASan runtime preloaded.
    config.available_features.add("sanitize")
    # A sanitizer report aborts (a crash), so that `not` tests, which accept
    # an exit status of 1, still fail on it.
    # User poisoning is off: an uninstrumented libMLIR.so writes into
    # BumpPtrAllocator slabs that Kiln's instrumented inline code poisoned
    # (scripts/test.sh).
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:"
        "allow_user_poisoning=0")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:abort_on_error=1"
    # MPICH's UCX transport hooks malloc and mmap, which ASan's interceptors
    # already own: a rank crashes in its first MPI call (scripts/test.sh).
    config.environment["UCX_MEM_EVENTS"] = "no"
    config.substitutions.append(
        ("%mlir_runner", "env LD_PRELOAD=%s %s" % (config.kiln_asan_runtime,
                                                   config.mlir_runner)))
    config.substitutions.append(
        ("%mlir_opt", "env LD_PRELOAD=%s %s" % (config.kiln_asan_runtime,
                                                config.mlir_opt)))
    # A project built on an installed sanitizer build links instrumented
    # static libraries.
    sanitize_flags = "-fsanitize=address,undefined"
    downstream_flags = ["-DCMAKE_C_FLAGS=" + sanitize_flags,
                        "-DCMAKE_CXX_FLAGS=" + sanitize_flags]
    # Programs linked with Kiln's instrumented static runtimes need the
    # sanitizer runtimes too.
    config.substitutions.append(
        ("%cc", config.c_compiler + " -fsanitize=address,undefined"))
else:
    config.substitutions.append(("%mlir_runner", config.mlir_runner))
    config.substitutions.append(("%mlir_opt", config.mlir_opt))
    config.substitutions.append(("%cc", config.c_compiler))
    downstream_flags = []
# Projects built against an installed Kiln (test/Tools/install.mlir) use
# Kiln's compilers and generator.
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(
    ("%downstream_cmake_flags",
     " ".join(["-G Ninja", "-DCMAKE_MAKE_PROGRAM=" + config.make_program,
               "-DCMAKE_C_COMPILER=" + config.c_compiler,
               "-DCMAKE_CXX_COMPILER=" + config.cxx_compiler]
              + downstream_flags)))

aot_run = os.path.join(os.path.dirname(__file__), "Integration", "AOT",
                       "Inputs", "kiln_aot_run.py")
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%kiln_obj_root", config.kiln_obj_root))
if kiln_suite == "aot":
    runner = ToolSubst("kiln-vulkan-runner", command=config.python_executable,
                       extra_args=[aot_run])
elif kiln_suite == "cuda":
    runner = ToolSubst("kiln-vulkan-runner", command=config.python_executable,
                       extra_args=[os.path.join(os.path.dirname(__file__),
                                                "Integration", "CUDA",
                                                "Inputs", "kiln_cuda_run.py")])
    if "cuda-device" not in config.available_features:
        config.unsupported = True
    # Tests whose expected values assume 8-wide subgroups (lavapipe's) cannot
    # hold on 32-wide warps; tests of what only Vulkan has (its limits, the
    # validation layer's debug printf) say "kiln-cuda-suite: vulkan only".
    for name in os.listdir(config.test_source_root):
        path = os.path.join(config.test_source_root, name)
        if name.endswith(".mlir"):
            with open(path) as f:
                text = f.read()
                if ("kiln-bundle subgroup_size=8" in text
                        or "kiln-cuda-suite: vulkan only" in text):
                    config.excludes.append(name)
elif kiln_suite == "spirv-cpu":
    # The Vulkan integration tests through kiln-spirv-cpu-runner: no Vulkan
    # device needed. `lit -D spirv-cpu-checked=1` runs them in checked mode.
    runner = ToolSubst("kiln-vulkan-runner", command=config.python_executable,
                       extra_args=[os.path.join(os.path.dirname(__file__),
                                                "Integration", "SPIRVCPU",
                                                "Inputs",
                                                "kiln_spirv_cpu_run.py")])
    config.available_features.add("vulkan-runner")
    if lit_config.params.get("spirv-cpu-checked") == "1":
        config.environment["KILN_SPIRV_CPU_CHECKED"] = "1"
    # What only a Vulkan device has (the validation layer's debug printf,
    # device limits) says "kiln-spirv-cpu-suite: vulkan only".
    for name in os.listdir(config.test_source_root):
        path = os.path.join(config.test_source_root, name)
        if name.endswith(".mlir"):
            with open(path) as f:
                if "kiln-spirv-cpu-suite: vulkan only" in f.read():
                    config.excludes.append(name)
else:
    runner = "kiln-vulkan-runner"

tools = [
    "kiln-opt",
    runner,
    "kiln-translate",
    "kiln-compile",
    "kiln-cuda-runner",
    "kiln-spirv-cpu-runner",
    ToolSubst("spirv-val", config.spirv_val),
    ToolSubst("spirv-dis", config.spirv_dis),
]
llvm_config.add_tool_substitutions(tools,
                                   [config.kiln_tools_dir, config.llvm_tools_dir])
