"""Kernels launched directly: prog.kernel("module", "func")[grid, block]."""

import gc

import numpy as np
import pytest

import kiln
import support


def test_launch_1d(target):
    prog = support.program(support.OUTLINED, target)
    saxpy = prog.kernel("kernels", "saxpy")
    x = np.arange(100, dtype=np.float32)
    y = np.ones(100, dtype=np.float32)
    saxpy[4, 32](3.0, x, y)
    np.testing.assert_array_equal(y, 3 * x + 1)


def test_launch_tuples(target):
    prog = support.program(support.OUTLINED, target)
    saxpy = prog.kernel("kernels", "saxpy")
    x = np.arange(70, dtype=np.float32)
    y = np.zeros(70, dtype=np.float32)
    saxpy[(3, 1, 1), (32, 1, 1)](1.0, x, y)
    np.testing.assert_array_equal(y, x)


def test_launch_2d(target):
    """A 2-D grid of 2x2 blocks of 3x2 threads covers the 4x6 matrix."""
    prog = support.program(support.OUTLINED, target)
    fill = prog.kernel("kernels", "fill2d")
    m = np.zeros((4, 6), dtype=np.int32)
    fill[(2, 2), (3, 2)](m, 7)
    np.testing.assert_array_equal(
        m, np.add.outer(np.arange(4) * 100, np.arange(6)) + 7)


def test_launch_on_device_arrays(target):
    """Device arrays between launches and host calls of the same program."""
    prog = support.program(support.OUTLINED, target)
    saxpy = prog.kernel("kernels", "saxpy")
    x = np.arange(64, dtype=np.float32)
    dx = kiln.to_device(x, target)
    dy = kiln.to_device(np.zeros(64, dtype=np.float32), target)
    saxpy[2, 32](1.0, dx, dy)
    prog.run_saxpy(1.0, dx, dy)
    saxpy[2, 32](1.0, dx, dy)
    np.testing.assert_array_equal(dy.numpy(), 3 * x)


def test_kernel_arguments_checked(target):
    prog = support.program(support.OUTLINED, target)
    saxpy = prog.kernel("kernels", "saxpy")
    x = np.zeros(8, dtype=np.float32)
    with pytest.raises(TypeError):
        saxpy[1, 32](1.0, x)  # too few
    with pytest.raises(TypeError):
        saxpy[1, 32](1.0, x, x, x)  # too many
    with pytest.raises(TypeError):
        saxpy[1, 32](x, x, x)  # a memref where the scalar goes
    with pytest.raises(TypeError):
        saxpy[1, 32](1.0, 2.0, x)  # a scalar where a memref goes
    with pytest.raises((TypeError, ValueError), match="f32|float32"):
        saxpy[1, 32](1.0, np.zeros(8, dtype=np.int32), x)
    with pytest.raises((TypeError, ValueError), match="rank|dimension"):
        saxpy[1, 32](1.0, np.zeros((2, 4), dtype=np.float32), x)
    fill = prog.kernel("kernels", "fill2d")
    with pytest.raises(ValueError):
        fill[(2, 2), (3, 2)](np.zeros((4, 5), dtype=np.int32), 0)


def test_bad_grid(target):
    prog = support.program(support.OUTLINED, target)
    saxpy = prog.kernel("kernels", "saxpy")
    x = np.zeros(8, dtype=np.float32)
    with pytest.raises((TypeError, ValueError)):
        saxpy[(1, 1, 1, 1), 32](1.0, x, x)
    with pytest.raises((TypeError, ValueError)):
        saxpy[0, 32](1.0, x, x)
    with pytest.raises((TypeError, ValueError)):
        saxpy[1](1.0, x, x)
    with pytest.raises(TypeError):
        saxpy(1.0, x, x)  # no launch configuration


def test_block_size_the_kernel_was_not_compiled_for(target):
    """Vulkan and spirv-cpu kernels have a fixed block size (32 here): any
    other is an exception, not a crash."""
    if target == "cuda":
        pytest.skip("CUDA kernels take any block size")
    prog = support.program(support.OUTLINED, target)
    x = np.zeros(64, dtype=np.float32)
    with pytest.raises((ValueError, kiln.RuntimeError)):
        prog.kernel("kernels", "saxpy")[1, 64](1.0, x, x)


def test_unknown_kernel(target):
    prog = support.program(support.OUTLINED, target)
    with pytest.raises((KeyError, ValueError), match="saxpy"):
        prog.kernel("kernels", "sapxy")
    with pytest.raises((KeyError, ValueError), match="kernels"):
        prog.kernel("kernelz", "saxpy")


def test_launcher_outlives_program(target):
    saxpy = kiln.compile(support.OUTLINED, target).kernel("kernels", "saxpy")
    gc.collect()
    y = np.zeros(32, dtype=np.float32)
    saxpy[1, 32](2.0, np.ones(32, dtype=np.float32), y)
    np.testing.assert_array_equal(y, np.full(32, 2.0, dtype=np.float32))
