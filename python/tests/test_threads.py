"""Threads: the GIL is released while Kiln compiles, calls and waits."""

import threading
import time

import numpy as np

import kiln
import support


def test_two_threads_compile_and_call(target):
    """Two threads compile their own program and call it repeatedly at the
    same time; each gets its own right results."""
    errors = []

    def work(scale):
        try:
            prog = kiln.compile(support.SAXPY, target)
            x = np.arange(2000, dtype=np.float32)
            for _ in range(20):
                y = np.ones(2000, dtype=np.float32)
                prog.saxpy(float(scale), x, y)
                np.testing.assert_array_equal(y, scale * x + 1)
        except Exception as error:  # Reported by the main thread.
            errors.append(error)

    threads = [threading.Thread(target=work, args=(s,)) for s in (2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_two_threads_share_a_program(target):
    prog = support.program(support.SAXPY, target)
    errors = []

    def work(scale):
        try:
            x = np.arange(500, dtype=np.float32)
            dy = kiln.to_device(np.zeros(500, dtype=np.float32), target)
            for _ in range(20):
                prog.saxpy(float(scale), x, dy)
            np.testing.assert_array_equal(dy.numpy(), 20 * scale * x)
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(s,)) for s in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def count_while(function):
    """Runs `function` in a thread and counts how often this thread gets to
    run Python meanwhile."""
    started = threading.Event()
    errors = []

    def run():
        started.set()
        try:
            function()
        except Exception as error:  # Raised again in the calling thread.
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    count = 0
    begin = time.monotonic()
    while thread.is_alive():
        count += 1
        time.sleep(0.001)
    thread.join()
    if errors:
        raise errors[0]
    return count, time.monotonic() - begin


def long_enough(call, seconds=0.2):
    """The size of x (a multiple of 64) for which call(x) takes `seconds`,
    doubling from one block."""
    size = 64
    while True:
        x = np.zeros(size, dtype=np.float32)
        begin = time.monotonic()
        call(x)
        if time.monotonic() - begin >= seconds or size >= 1 << 22:
            return size
        size *= 2


def test_call_releases_the_gil(target):
    """While one thread waits in a long kernel, another runs Python."""
    prog = support.program(support.SPIN, target)
    size = long_enough(prog.spin)
    x = np.zeros(size, dtype=np.float32)
    count, seconds = count_while(lambda: prog.spin(x))
    assert seconds > 0.05, "the kernel was too short to tell"
    assert count >= 10, f"{count} steps of the other thread in {seconds:.2f} s"
    np.testing.assert_array_equal(x, np.ones(size, dtype=np.float32))


def test_launch_releases_the_gil(target):
    """The same for a kernel launched directly."""
    prog = support.program(support.OUTLINED, target)
    spin = prog.kernel("kernels", "spin")

    def launch(x):
        spin[x.size // 64, 64](x)

    size = long_enough(launch)
    x = np.zeros(size, dtype=np.float32)
    count, seconds = count_while(lambda: launch(x))
    assert seconds > 0.05, "the kernel was too short to tell"
    assert count >= 10, f"{count} steps of the other thread in {seconds:.2f} s"
    np.testing.assert_array_equal(x, np.ones(size, dtype=np.float32))


def test_compile_releases_the_gil(target):
    sources = [support.twice_plus_one(t) for t in ("f32", "i32", "f64")]

    def compile_all():
        for source in sources:
            kiln.compile(source, target, opt_level=3)

    count, seconds = count_while(compile_all)
    assert count >= 5, f"{count} steps of the other thread in {seconds:.2f} s"
