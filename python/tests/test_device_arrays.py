"""Devices, device arrays and DLPack."""

import datetime
import gc
import sys
import weakref

import numpy as np
import pytest

import kiln
import support

# DLPack's device types: what __dlpack_device__ says for each target.
DLPACK_DEVICE = {"spirv-cpu": 1, "cuda": 2, "vulkan": 7}


def test_devices(target):
    devices = kiln.devices(target)
    assert len(devices) >= 1
    first = devices[0]
    index = first["index"] if isinstance(first, dict) else first.index
    name = first["name"] if isinstance(first, dict) else first.name
    assert index == 0
    assert isinstance(name, str) and name


def test_devices_default_target_is_vulkan():
    if support.unavailable("vulkan"):
        pytest.skip(support.unavailable("vulkan"))
    assert len(kiln.devices()) == len(kiln.devices("vulkan"))


def test_devices_unknown_target():
    with pytest.raises(ValueError):
        kiln.devices("opencl")


def test_to_device_and_back(target):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    d = kiln.to_device(x, target)
    assert isinstance(d, kiln.DeviceArray)
    assert d.shape == (2, 3, 4)
    assert d.dtype == np.float32
    assert d.nbytes == x.nbytes
    assert d.target == target
    assert d.device == 0
    back = d.numpy()
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, x)
    # A copy: changing the host array does not change the device's.
    x[0, 0, 0] = 99
    assert d.numpy()[0, 0, 0] == 0


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int8, np.uint16,
                                   np.int64, np.bool_])
def test_to_device_dtypes(target, dtype):
    x = (np.arange(10) % 3).astype(dtype)
    d = kiln.to_device(x, target)
    assert d.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(d.numpy(), x)


def test_to_device_rank_0(target):
    """A rank-0 array stays rank 0 on the device."""
    d = kiln.to_device(np.array(2.5, dtype=np.float64), target)
    assert d.shape == ()
    back = d.numpy()
    assert back.shape == () and back == 2.5


def test_to_device_non_contiguous(target):
    """A strided view is copied to the device as the array it shows."""
    x = np.arange(40, dtype=np.int32).reshape(5, 8)[::2, 1::3]
    np.testing.assert_array_equal(kiln.to_device(x, target).numpy(), x)


def test_device_array_as_argument(target):
    """Data stays on the device between calls: two calls on device arrays,
    the host arrays untouched, the result copied back once."""
    prog = support.program(support.SAXPY, target)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    dx = kiln.to_device(x, target)
    dy = kiln.to_device(y, target)
    prog.saxpy(2.0, dx, dy)
    prog.saxpy(3.0, dx, dy)
    np.testing.assert_array_equal(y, np.ones(1000, dtype=np.float32))
    np.testing.assert_array_equal(dy.numpy(), 1 + 5 * x)


def test_device_and_host_arrays_mixed(target):
    prog = support.program(support.SAXPY, target)
    x = np.arange(64, dtype=np.float32)
    dy = kiln.to_device(np.zeros(64, dtype=np.float32), target)
    prog.saxpy(1.0, x, dy)
    np.testing.assert_array_equal(dy.numpy(), x)


def test_device_array_checked_like_an_array(target):
    prog = support.program(support.SAXPY, target)
    dx = kiln.to_device(np.zeros(8, dtype=np.float64), target)
    with pytest.raises((TypeError, ValueError)):
        prog.saxpy(1.0, dx, dx)
    d2 = kiln.to_device(np.zeros((2, 4), dtype=np.float32), target)
    with pytest.raises((TypeError, ValueError)):
        prog.saxpy(1.0, d2, d2)


def test_device_array_of_another_target_refused(target):
    """Memory of another runtime cannot go to this one's kernels."""
    other = next((t for t in support.TARGETS
                  if t != target and support.unavailable(t) is None), None)
    if other is None:
        pytest.skip("one target only")
    prog = support.program(support.SAXPY, target)
    dx = kiln.to_device(np.zeros(8, dtype=np.float32), other)
    y = np.zeros(8, dtype=np.float32)
    with pytest.raises((TypeError, ValueError), match=other):
        prog.saxpy(1.0, dx, y)


def test_to_device_bad_device(target):
    count = len(kiln.devices(target))
    with pytest.raises((ValueError, IndexError, kiln.RuntimeError)):
        kiln.to_device(np.zeros(4, dtype=np.float32), target, device=count)


def test_to_device_bad_input():
    with pytest.raises(TypeError):
        kiln.to_device(np.zeros(4, dtype=np.complex64), "spirv-cpu")
    with pytest.raises(ValueError):
        kiln.to_device(np.zeros(4, dtype=np.float32), "opencl")


# --------------------------------------------------------------------------
# Lifetimes.


def test_device_array_outlives_program(target):
    """A device array made for a program's calls stays valid when the
    program is gone, and serves a new program."""
    prog = kiln.compile(support.SAXPY, target)
    dy = kiln.to_device(np.zeros(50, dtype=np.float32), target)
    prog.saxpy(1.0, np.ones(50, dtype=np.float32), dy)
    del prog
    gc.collect()
    np.testing.assert_array_equal(dy.numpy(), np.ones(50, dtype=np.float32))
    again = kiln.compile(support.SAXPY, target)
    again.saxpy(1.0, np.ones(50, dtype=np.float32), dy)
    np.testing.assert_array_equal(dy.numpy(), np.full(50, 2.0,
                                                      dtype=np.float32))


def test_function_outlives_program_name(target):
    """A bound function keeps its program alive."""
    saxpy = kiln.compile(support.SAXPY, target).saxpy
    gc.collect()
    y = np.zeros(10, dtype=np.float32)
    saxpy(3.0, np.ones(10, dtype=np.float32), y)
    np.testing.assert_array_equal(y, np.full(10, 3.0, dtype=np.float32))


def test_device_array_freed_by_gc(target):
    """Device arrays freed when collected: many allocations of 16 MiB (far
    more than the device would hold at once on a small heap) and a program
    dropped between calls."""
    for i in range(40):
        d = kiln.to_device(np.full(4 << 20, i, dtype=np.float32), target)
        assert d.numpy()[-1] == i
        del d
        if i % 10 == 0:
            prog = kiln.compile(support.SAXPY, target)
            dy = kiln.to_device(np.zeros(8, dtype=np.float32), target)
            prog.saxpy(1.0, np.ones(8, dtype=np.float32), dy)
            del prog
            gc.collect()
            assert dy.numpy()[0] == 1.0
    gc.collect()


def test_many_programs(target):
    """Programs compiled and dropped in a loop, while others stay."""
    keep = [kiln.compile(support.SAXPY, target) for _ in range(3)]
    for _ in range(10):
        kiln.compile(support.SAXPY, target)
    gc.collect()
    for prog in keep:
        y = np.zeros(3, dtype=np.float32)
        prog.saxpy(1.0, np.ones(3, dtype=np.float32), y)
        assert list(y) == [1.0, 1.0, 1.0]


# --------------------------------------------------------------------------
# DLPack.


def test_dlpack_device(target):
    d = kiln.to_device(np.zeros(4, dtype=np.float32), target)
    assert tuple(d.__dlpack_device__()) == (DLPACK_DEVICE[target], 0)
    assert d.__dlpack__() is not None


def test_dlpack_to_numpy_on_the_host(target):
    """spirv-cpu's device memory is host memory: numpy takes it through
    DLPack without a copy, and sees later kernel writes."""
    if target != "spirv-cpu":
        pytest.skip(f"{target} device memory is not host memory")
    prog = support.program(support.SAXPY, target)
    dy = kiln.to_device(np.zeros(16, dtype=np.float32), target)
    view = np.from_dlpack(dy)
    assert view.shape == (16,) and view.dtype == np.float32
    prog.saxpy(1.0, np.arange(16, dtype=np.float32), dy)
    np.testing.assert_array_equal(view, np.arange(16, dtype=np.float32))


class OnlyDLPack:
    """An object that speaks DLPack and nothing else."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_dlpack_argument_without_copy(target):
    """A CPU DLPack tensor passes as a memref of the same memory: the
    kernel's writes land in the exporter's array."""
    prog = support.program(support.SAXPY, target)
    y = np.zeros(32, dtype=np.float32)
    prog.saxpy(2.0, OnlyDLPack(np.ones(32, dtype=np.float32)), OnlyDLPack(y))
    np.testing.assert_array_equal(y, np.full(32, 2.0, dtype=np.float32))


def test_from_dlpack(target):
    prog = support.program(support.SAXPY, target)
    y = np.zeros(8, dtype=np.float32)
    imported = kiln.from_dlpack(y)
    prog.saxpy(1.0, np.ones(8, dtype=np.float32), imported)
    np.testing.assert_array_equal(y, np.ones(8, dtype=np.float32))


def test_dlpack_device_array_round_trip(target):
    """kiln.from_dlpack of a DeviceArray is the same device memory."""
    prog = support.program(support.SAXPY, target)
    dy = kiln.to_device(np.zeros(8, dtype=np.float32), target)
    again = kiln.from_dlpack(dy)
    prog.saxpy(1.0, np.ones(8, dtype=np.float32), again)
    np.testing.assert_array_equal(dy.numpy(), np.ones(8, dtype=np.float32))


@pytest.mark.parametrize("dtype,code,bits", [
    (np.float16, 2, 16), (np.float32, 2, 32), (np.float64, 2, 64),
    (np.int8, 0, 8), (np.int64, 0, 64), (np.uint16, 1, 16),
    (np.uint64, 1, 64), (np.bool_, 6, 8)])
def test_dlpack_capsule_describes_the_array(target, dtype, code, bits):
    """The capsule is a DLPack tensor of the array's own memory, read back
    through the extension: device, pointer, data type, sizes, strides."""
    d = kiln.to_device((np.arange(24) % 2).astype(dtype).reshape(2, 3, 4),
                       target)
    capsule = d.__dlpack__()
    assert type(capsule).__name__ == "PyCapsule"
    info = kiln._kiln.dlpack_info(capsule)
    assert info["device"] == (DLPACK_DEVICE[target], 0)
    assert info["data"] == d._pointer
    assert info["byte_offset"] == 0
    assert info["dtype"] == (code, bits, 1)
    assert info["shape"] == (2, 3, 4)
    assert info["strides"] == (12, 4, 1)


def test_dlpack_capsule_of_a_scalar(target):
    d = kiln.to_device(np.array(3.0, dtype=np.float32), target)
    info = kiln._kiln.dlpack_info(d.__dlpack__())
    assert info["shape"] == () and info["strides"] in ((), None)
    assert info["data"] == d._pointer


def test_dlpack_capsule_keeps_the_array_alive(target):
    """The array lives (and its memory stays allocated) while a capsule of
    it does, and goes when the capsule goes."""
    x = np.arange(8, dtype=np.int32)
    d = kiln.to_device(x, target)
    alive = weakref.ref(d)
    capsule = d.__dlpack__()
    del d
    gc.collect()
    assert alive() is not None
    np.testing.assert_array_equal(alive().numpy(), x)
    del capsule
    gc.collect()
    assert alive() is None


def test_dlpack_deleter_runs_once(target):
    """A capsule deleted unconsumed deletes its tensor once; a consumed one
    leaves that to its consumer (the reference the tensor holds on the
    array counts each deletion: a second would take one the array's
    holders own)."""
    x = np.arange(6, dtype=np.float32)
    d = kiln.to_device(x, target)
    base = sys.getrefcount(d)
    capsule = d.__dlpack__()
    assert sys.getrefcount(d) == base + 1
    del capsule
    gc.collect()
    assert sys.getrefcount(d) == base

    capsule = d.__dlpack__()
    kiln._kiln.dlpack_consume(capsule)
    assert sys.getrefcount(d) == base
    with pytest.raises(ValueError, match="already consumed"):
        kiln._kiln.dlpack_info(capsule)
    with pytest.raises(ValueError, match="already consumed"):
        kiln._kiln.dlpack_consume(capsule)
    del capsule
    gc.collect()
    assert sys.getrefcount(d) == base

    if target == "spirv-cpu":
        # numpy consumes the capsule and deletes the tensor with its view.
        view = np.from_dlpack(d)
        assert sys.getrefcount(d) == base + 1
        np.testing.assert_array_equal(view, x)
        del view
        gc.collect()
        assert sys.getrefcount(d) == base
    np.testing.assert_array_equal(d.numpy(), x)


def test_dlpack_arguments(target):
    d = kiln.to_device(np.zeros(4, dtype=np.float32), target)
    device = d.__dlpack_device__()
    kiln._kiln.dlpack_info(d.__dlpack__(stream=None, max_version=(1, 0),
                                        dl_device=device, copy=False))
    if target == "cuda":
        kiln._kiln.dlpack_info(d.__dlpack__(stream=1))
    with pytest.raises(TypeError, match="stream"):
        d.__dlpack__(stream="default")
    with pytest.raises(BufferError, match="without a copy"):
        d.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="not"):
        d.__dlpack__(dl_device=(device[0], device[1] + 1))


def test_dlpack_info_refuses_what_is_not_a_tensor():
    with pytest.raises(TypeError, match="DLPack capsule"):
        kiln._kiln.dlpack_info(np.zeros(2))
    with pytest.raises(ValueError, match="not a DLPack tensor"):
        # Another capsule: datetime's C API.
        kiln._kiln.dlpack_info(datetime.datetime_CAPI)


class ForeignDevice:
    """Another library's device tensor, as DLPack describes it."""

    def __init__(self, device_type):
        self.device_type = device_type

    def __dlpack__(self, stream=None):
        raise AssertionError("kiln must refuse before taking the capsule")

    def __dlpack_device__(self):
        return (self.device_type, 0)


@pytest.mark.parametrize("device_type", [2, 7])
def test_from_dlpack_refuses_foreign_device_memory(device_type):
    with pytest.raises(BufferError, match="copy it to the host first"):
        kiln.from_dlpack(ForeignDevice(device_type))
