"""A quick check that the package builds, imports, compiles and runs.

The full suite lives beside this file; run it with
`PYTHONPATH=build/python python3 -m pytest python/tests`.
"""

import numpy as np
import pytest

import kiln
import support

# The suite's saxpy module (support.SAXPY) with a function whose gpu.alloc
# fails at run time added to it.
SAXPY = support.SAXPY.rstrip().removesuffix("}") + """\
  func.func @alloc_fails(%n: index) {
    %m = gpu.alloc (%n) : memref<?xf32>
    gpu.dealloc %m : memref<?xf32>
    return
  }
}
"""


def test_version():
    assert isinstance(kiln.__version__, str) and kiln.__version__


def test_saxpy_spirv_cpu():
    prog = kiln.compile(SAXPY, target="spirv-cpu")
    assert "saxpy" in prog.functions
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    prog.saxpy(2.0, x, y)
    np.testing.assert_allclose(y, 2 * x + 1)


def test_compile_error_has_location():
    with pytest.raises(kiln.CompileError) as info:
        kiln.compile("module {\n  func.func @f() {\n    %0 = arith.addi\n  }\n}\n",
                     target="spirv-cpu", name="bad.mlir")
    assert info.value.diagnostics
    assert "bad.mlir:3:" in str(info.value)


def test_runtime_error_is_an_exception():
    prog = kiln.compile(SAXPY, target="spirv-cpu")
    with pytest.raises(kiln.RuntimeError, match="kiln-spirv-cpu"):
        prog.alloc_fails(1 << 50)
    # The process and the runtime go on.
    y = np.zeros(10, np.float32)
    prog.saxpy(1.0, np.ones(10, np.float32), y)
    np.testing.assert_allclose(y, 1.0)
