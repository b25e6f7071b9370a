"""kiln.timing(): each launch's kernel, device and GPU time."""

import numpy as np

import kiln
import support


def test_timing_records_launches(target):
    prog = support.program(support.SAXPY, target)
    x = np.ones(4096, dtype=np.float32)
    y = np.zeros(4096, dtype=np.float32)
    with kiln.timing() as t:
        prog.saxpy(1.0, x, y)
        prog.saxpy(1.0, x, y)
    assert len(t.launches) == 2, t.launches
    for launch in t.launches:
        assert "saxpy" in launch.kernel
        assert launch.device == 0
        assert launch.gpu_us >= 0.0
        kernel, device, gpu_us = launch  # a named tuple
        assert (kernel, device, gpu_us) == (launch.kernel, launch.device,
                                            launch.gpu_us)
    np.testing.assert_array_equal(y, np.full(4096, 2.0, dtype=np.float32))


def test_timing_direct_launch(target):
    prog = support.program(support.OUTLINED, target)
    x = np.ones(64, dtype=np.float32)
    with kiln.timing() as t:
        prog.kernel("kernels", "saxpy")[2, 32](1.0, x, x)
    assert [launch.kernel for launch in t.launches] == ["saxpy"] or \
        all("saxpy" in launch.kernel for launch in t.launches), t.launches
    assert len(t.launches) == 1


def test_nothing_recorded_outside(target):
    prog = support.program(support.SAXPY, target)
    x = np.ones(8, dtype=np.float32)
    with kiln.timing() as t:
        pass
    prog.saxpy(1.0, x, x)
    assert t.launches == []
    with kiln.timing() as again:
        prog.saxpy(1.0, x, x)
    assert len(again.launches) == 1
    assert t.launches == []


def test_long_kernel_takes_time(target):
    """GPU time grows with the work: 64 threads of 50000 steps each take
    less than 64 times as many."""
    prog = support.program(support.SPIN, target)
    with kiln.timing() as t:
        prog.spin(np.zeros(64, dtype=np.float32))
        prog.spin(np.zeros(64 * 64, dtype=np.float32))
    short, long = (launch.gpu_us for launch in t.launches)
    assert 0 < short < long
