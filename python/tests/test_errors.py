"""Errors are exceptions: compile errors with their locations, bad
arguments, and runtime failures that raise kiln.RuntimeError while the
process goes on."""

import os
import pathlib
import re

import numpy as np
import pytest

import kiln
import support

# Line 4, column 10: the use of an undefined value.
UNDEFINED_VALUE = """module {
  func.func @f(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    return %z : f32
  }
}
"""

# A kernel on an i1 memref: the Vulkan and spirv-cpu pipelines refuse it at
# the gpu.launch (line 6, column 5).
I1_KERNEL = """module attributes {gpu.container_module} {
  func.func @f(%x: memref<?xi1>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xi1>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%bx] : memref<?xi1>
      memref.store %v, %x[%bx] : memref<?xi1>
      gpu.terminator
    }
    return
  }
}
"""


def compile_error(source, target, **options):
    with pytest.raises(kiln.CompileError) as error:
        kiln.compile(source, target, **options)
    return error.value


def test_compile_error_in_text_has_the_callers_name(target):
    error = compile_error(UNDEFINED_VALUE, target, name="my_kernels.mlir")
    assert "my_kernels.mlir:4:12: error:" in str(error), str(error)
    assert "undeclared" in str(error)
    assert error.diagnostics
    assert all(isinstance(d, str) for d in error.diagnostics)
    assert any("my_kernels.mlir:4:12" in d for d in error.diagnostics)


def test_compile_error_in_text_default_name(target):
    error = compile_error(UNDEFINED_VALUE, target)
    assert "<source>:4:12: error:" in str(error), str(error)


def test_compile_error_in_file(target, tmp_path):
    path = tmp_path / "broken.mlir"
    path.write_text(UNDEFINED_VALUE)
    for source in (path, str(path)):
        error = compile_error(source, target)
        assert f"{path}:4:12: error:" in str(error), str(error)


def test_compile_error_from_the_pipeline(target):
    """An error a pass reports carries the op's location too."""
    if target == "cuda":
        pytest.skip("CUDA kernels may take i1 memrefs")
    error = compile_error(I1_KERNEL, target, name="bools.mlir")
    assert re.search(r"bools\.mlir:6:5: error: .*i1", str(error)), str(error)


def test_compile_error_is_an_exception_class():
    assert issubclass(kiln.CompileError, Exception)


def test_every_diagnostic_in_the_message(target):
    """Each diagnostic's first line is in the exception's message."""
    error = compile_error(UNDEFINED_VALUE, target, name="all.mlir")
    assert error.diagnostics
    for diagnostic in error.diagnostics:
        assert diagnostic.splitlines()[0] in str(error)


def test_compile_after_an_error_works(target):
    compile_error(UNDEFINED_VALUE, target)
    prog = kiln.compile(support.SAXPY, target)
    y = np.zeros(4, dtype=np.float32)
    prog.saxpy(1.0, np.ones(4, dtype=np.float32), y)
    np.testing.assert_array_equal(y, np.ones(4, dtype=np.float32))


def test_missing_file():
    missing = pathlib.Path("/nonexistent/kiln/input.mlir")
    with pytest.raises((OSError, kiln.CompileError)) as error:
        kiln.compile(missing, "spirv-cpu")
    assert str(missing) in str(error.value)


def test_bad_arguments():
    with pytest.raises(ValueError, match="opencl"):
        kiln.compile(support.SAXPY, "opencl")
    with pytest.raises(TypeError):
        kiln.compile(42, "spirv-cpu")
    with pytest.raises((ValueError, TypeError)):
        kiln.compile(support.SAXPY, "spirv-cpu", opt_level=9)


def test_unknown_function(target):
    prog = support.program(support.SAXPY, target)
    assert "saxpy" in prog.functions
    with pytest.raises(AttributeError, match="saxpy"):
        prog.sapxy
    with pytest.raises(KeyError, match="saxpy"):
        prog["sapxy"]
    assert prog["saxpy"] is not None


# --------------------------------------------------------------------------
# Runtime errors.


def test_runtime_error_is_an_exception(target):
    """gpu.set_default_device past the program's one device: the runtime's
    message as kiln.RuntimeError (a RuntimeError), and the process, the
    program and the runtime keep working."""
    prog = kiln.compile(support.SWITCH_DEVICE, target)
    assert issubclass(kiln.RuntimeError, RuntimeError)
    with pytest.raises(kiln.RuntimeError) as error:
        prog.switch_device(5)
    assert "mgpuSetDefaultDevice(5)" in str(error.value), str(error.value)
    # Again, and then a call that succeeds.
    for _ in range(3):
        with pytest.raises(kiln.RuntimeError):
            prog.switch_device(-1)
    prog.switch_device(0)
    saxpy = support.program(support.SAXPY, target)
    y = np.zeros(100, dtype=np.float32)
    saxpy.saxpy(2.0, np.ones(100, dtype=np.float32), y)
    np.testing.assert_array_equal(y, np.full(100, 2.0, dtype=np.float32))


def test_runtime_error_in_a_thread(target):
    """The recovery point is per thread: a failure in another thread raises
    there."""
    import threading
    prog = support.program(support.SWITCH_DEVICE, target)
    caught = []

    def fail():
        try:
            prog.switch_device(7)
        except kiln.RuntimeError as error:
            caught.append(str(error))

    thread = threading.Thread(target=fail)
    thread.start()
    thread.join()
    assert len(caught) == 1 and "mgpuSetDefaultDevice(7)" in caught[0]


def test_runtime_error_message_not_only_on_stderr(target, capfd):
    """The message is the exception's; the process's stderr does not get a
    fatal-error report."""
    prog = support.program(support.SWITCH_DEVICE, target)
    with pytest.raises(kiln.RuntimeError):
        prog.switch_device(3)
    captured = capfd.readouterr()
    assert "mgpuSetDefaultDevice(3)" not in captured.out
