"""What needs a fresh process: a program's own device list, and the
examples, run as a user runs them."""

import subprocess
import sys
import textwrap

import pytest

import support

TWO_DEVICES = textwrap.dedent('''
    import sys
    import numpy as np
    import kiln

    source = """
    module attributes {gpu.container_module} {
      func.func @on_device(%d: i32, %x: memref<?xf32>) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %n = memref.dim %x, %c0 : memref<?xf32>
        gpu.set_default_device %d
        %k = arith.sitofp %d : i32 to f32
        gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
                   threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
          memref.store %k, %x[%bx] : memref<?xf32>
          gpu.terminator
        }
        return
      }
    }
    """
    prog = kiln.compile(source, sys.argv[1], device="0,0")
    x = np.zeros(8, dtype=np.float32)
    prog.on_device(1, x)
    assert (x == 1).all(), x
    prog.on_device(0, x)
    assert (x == 0).all(), x
    try:
        prog.on_device(2, x)
    except kiln.RuntimeError as error:
        assert "mgpuSetDefaultDevice(2)" in str(error), str(error)
        assert "0..1" in str(error), str(error)
    else:
        raise AssertionError("device 2 of 2 was accepted")
    print("two devices: ok")
''')


def run_python(args, timeout=300):
    return subprocess.run([sys.executable] + args, capture_output=True,
                          text=True, env=support.python_env(),
                          cwd=str(support.REPO), timeout=timeout)


def test_device_list(target):
    """compile(device="0,0"): one device listed twice is two devices, and
    a device past the list is a kiln.RuntimeError naming the list."""
    run = run_python(["-c", TWO_DEVICES, target])
    assert run.returncode == 0, run.stdout + run.stderr
    assert "two devices: ok" in run.stdout


def test_example_saxpy_matmul(target):
    """examples/python/saxpy_matmul.py, as docs/python.md runs it."""
    example = support.REPO / "examples" / "python" / "saxpy_matmul.py"
    run = run_python([str(example), f"--target={target}"])
    assert run.returncode == 0, run.stdout + run.stderr
    assert "saxpy: ok" in run.stdout, run.stdout
    assert "matmul: ok" in run.stdout, run.stdout


def test_example_bad_target():
    example = support.REPO / "examples" / "python" / "saxpy_matmul.py"
    run = run_python([str(example), "--target=opencl"])
    assert run.returncode != 0
    assert "opencl" in run.stderr


def test_readme_snippet():
    """The Python lines of README.md's Python section run as written."""
    readme = (support.REPO / "README.md").read_text()
    section = readme.split("## Python", 1)
    assert len(section) == 2, "README.md has no Python section"
    blocks = section[1].split("\n## ", 1)[0].split("```python\n")[1:]
    assert blocks, "README.md's Python section has no python block"
    code = blocks[0].split("```", 1)[0]
    if support.unavailable("vulkan"):
        pytest.skip("the README's example runs on Vulkan")
    run = run_python(["-c", code])
    assert run.returncode == 0, run.stdout + run.stderr


MIXED_TARGETS = textwrap.dedent('''
    import sys
    import numpy as np
    import kiln
    sys.path.insert(0, sys.argv[1])
    import support

    for target in sys.argv[2:]:
        prog = kiln.compile(support.SAXPY, target)
        y = np.zeros(70, dtype=np.float32)
        prog.saxpy(2.0, np.ones(70, dtype=np.float32), y)
        assert (y == 2).all(), (target, y)
        print(target, "ok", flush=True)
''')


def test_targets_in_one_process():
    """Programs of every target with a device in one process, each target's
    kernels run by its own runtime (the runtimes export the same mgpu*
    names)."""
    targets = [t for t in support.TARGETS if support.unavailable(t) is None]
    if len(targets) < 2:
        pytest.skip("one target only")
    for order in (targets, targets[::-1]):
        run = run_python(["-c", MIXED_TARGETS, str(support.REPO / "python" /
                                                    "tests")] + order)
        assert run.returncode == 0, run.stdout + run.stderr
