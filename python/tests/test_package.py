"""The package itself: version, what it exports, the options of compile."""

import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import kiln
import support


def test_version_matches_the_tools():
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?\S*", kiln.__version__)
    tool = support.build_dir()
    if tool is None:
        pytest.skip("no build tree to compare with")
    out = subprocess.run([str(tool / "bin" / "kiln-compile"), "--version"],
                         capture_output=True, text=True,
                         env=support.tool_env()).stdout
    assert kiln.__version__ in out, out


def test_exports():
    for name in ("compile", "Program", "CompileError", "RuntimeError",
                 "devices", "to_device", "DeviceArray", "from_dlpack",
                 "timing", "__version__"):
        assert hasattr(kiln, name), name


def test_import_alone():
    """`import kiln` in a fresh interpreter, with nothing else set up."""
    subprocess.run([sys.executable, "-c", "import kiln; print(kiln.__version__)"],
                   check=True, env=support.python_env(), capture_output=True)


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_opt_levels(target, opt_level):
    prog = kiln.compile(support.SAXPY, target, opt_level=opt_level)
    y = np.zeros(10, dtype=np.float32)
    prog.saxpy(1.0, np.ones(10, dtype=np.float32), y)
    np.testing.assert_array_equal(y, np.ones(10, dtype=np.float32))


def test_target_env(target):
    """The target env of the device the program runs on."""
    prog = kiln.compile(support.SAXPY, target, target_env="device")
    y = np.zeros(10, dtype=np.float32)
    prog.saxpy(1.0, np.ones(10, dtype=np.float32), y)
    assert y[9] == 1.0


def test_bad_target_env(target):
    with pytest.raises((ValueError, kiln.CompileError)):
        kiln.compile(support.SAXPY, target, target_env="no-such-env")


def test_functions_listed(target):
    prog = support.program(support.OUTLINED, target)
    assert prog.functions == ["run_saxpy"]


def test_compile_a_path(target, tmp_path):
    path = tmp_path / "saxpy.mlir"
    path.write_text(support.SAXPY)
    for source in (path, str(path)):
        prog = kiln.compile(source, target)
        y = np.zeros(3, dtype=np.float32)
        prog.saxpy(2.0, np.ones(3, dtype=np.float32), y)
        assert list(y) == [2.0, 2.0, 2.0]


def test_default_target_is_vulkan():
    if support.unavailable("vulkan"):
        pytest.skip(support.unavailable("vulkan"))
    prog = kiln.compile(support.SAXPY)
    y = np.zeros(3, dtype=np.float32)
    prog.saxpy(2.0, np.ones(3, dtype=np.float32), y)
    assert list(y) == [2.0, 2.0, 2.0]
