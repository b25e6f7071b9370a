"""Python's results against the command-line runner's on the same file.

inputs/crosscheck.mlir's @main makes the inputs, calls @matmul_sqrt and @mix
and prints their results; the runner of the target runs it, and Python
calls the same functions of the same file with the same inputs made by
numpy."""

import re
import subprocess

import numpy as np

import kiln
import support

SOURCE = support.INPUTS / "crosscheck.mlir"


def printed_memrefs(output):
    """The memrefs printMemref* wrote, as (sizes, flat values) pairs."""
    result = []
    for block in output.split("Unranked Memref")[1:]:
        sizes = re.search(r"sizes = \[([^\]]*)\]", block).group(1)
        shape = tuple(int(s) for s in sizes.split(",")) if sizes else ()
        data = block.split("data =", 1)[1]
        values = re.findall(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?", data)
        result.append((shape, [float(v) for v in values]))
    return result


def inputs():
    i, j = np.indices((6, 5))
    a = ((5 * i + j) * 0.25 - 3).astype(np.float32)
    i, j = np.indices((5, 4))
    b = ((i - j) * 0.5).astype(np.float32)
    x = (np.arange(16, dtype=np.int64) * 1000003 - 7).astype(np.int32)
    return a, b, x


def test_same_results_as_the_runner(target):
    run = subprocess.run([support.runner(target), str(SOURCE)],
                         capture_output=True, text=True, timeout=300,
                         env=support.tool_env())
    assert run.returncode == 0, run.stderr
    (c_shape, c_printed), (y_shape, y_printed) = printed_memrefs(run.stdout)
    assert c_shape == (6, 4) and y_shape == (16,)

    prog = kiln.compile(SOURCE, target)
    a, b, x = inputs()
    c = np.zeros((6, 4), dtype=np.float32)
    prog.matmul_sqrt(a, b, c)
    y = np.zeros(16, dtype=np.int32)
    prog.mix(x, y)

    # printMemrefF32 prints six significant digits.
    np.testing.assert_allclose(c.ravel(), c_printed, rtol=5e-6, atol=1e-6)
    np.testing.assert_array_equal(y, np.array(y_printed, dtype=np.int64))

    # And both agree with numpy.
    np.testing.assert_allclose(c, np.sqrt(np.abs(a @ b)) + a[:, :4] / 3,
                               rtol=1e-5)
    with np.errstate(over="ignore"):
        expected = (x.astype(np.uint32) * np.uint32(2654435761)) ^ (
            x.astype(np.uint32) >> np.uint32(3))
    np.testing.assert_array_equal(y.view(np.uint32), expected)


def test_main_prints_the_same_from_python(target, capfd):
    """Calling @main from Python prints what the runner prints (the runner
    utilities' stdout is the process's)."""
    run = subprocess.run([support.runner(target), str(SOURCE)],
                         capture_output=True, text=True, timeout=300,
                         env=support.tool_env())
    assert run.returncode == 0, run.stderr
    prog = kiln.compile(SOURCE, target)
    capfd.readouterr()
    prog.main()
    printed = capfd.readouterr().out
    assert [m[1] for m in printed_memrefs(printed)] == \
        [m[1] for m in printed_memrefs(run.stdout)]
