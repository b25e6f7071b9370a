"""Devices and device memory: kiln.devices(), kiln.to_device(), DeviceArray."""

import collections
import re

import numpy as np

from . import _kiln
from . import _types

Device = collections.namedtuple("Device", "index name uuid description")
Device.__doc__ = """A device of a runtime, as kiln.devices() lists it.

`index` is what device= takes, `name` the device's name, `uuid` its UUID
(None where the runtime shows none) and `description` the runtime's whole
paragraph about it (what the runners' --list-devices prints)."""


def _check_target(target):
    from ._program import TARGETS
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; supported: "
                         + ", ".join(TARGETS))


def devices(target="vulkan"):
    """The devices of `target`'s runtime, a list of kiln.Device."""
    _check_target(target)
    text = _kiln.describe_devices(target)
    result = []
    for block in re.split(r"\n(?=\d+: )", text.strip()):
        match = re.match(r"(\d+): (.*)", block)
        if not match:
            continue
        uuid = re.search(r"uuid: (\S+)", block)
        result.append(Device(int(match.group(1)), match.group(2).strip(),
                             uuid.group(1) if uuid else None, block + "\n"))
    return result


class DeviceArray:
    """An array in a device's memory, made by kiln.to_device().

    It passes wherever a memref goes (a Program of the same target), so data
    stays on the device between calls; `.numpy()` copies it back. The
    memory is freed when the array is garbage collected.
    """

    def __init__(self, target, device, shape, dtype):
        _check_target(target)
        self.target = target
        self.device = int(device)
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self._pointer = None
        self._pointer = _kiln.allocate(target, self.device, max(self.nbytes, 1))

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def numpy(self):
        """A numpy copy of the array."""
        out = np.empty(self.shape, self.dtype)
        if self.nbytes:
            _kiln.copy(self.target, self.device, _types.address(out),
                       self._pointer, self.nbytes)
        return out

    def copy_from(self, array):
        """Copies numpy `array` (same shape and dtype) into the array."""
        array = np.ascontiguousarray(array)
        if array.shape != self.shape or array.dtype != self.dtype:
            raise ValueError(f"copy_from: an array of shape {array.shape} "
                             f"and dtype {array.dtype}, for a device array of "
                             f"shape {self.shape} and dtype {self.dtype}")
        if self.nbytes:
            _kiln.copy(self.target, self.device, self._pointer,
                       _types.address(array), self.nbytes)

    def __del__(self):
        pointer, self._pointer = getattr(self, "_pointer", None), None
        if pointer is not None:
            try:
                _kiln.free(self.target, self.device, pointer)
            except Exception:
                pass

    def __repr__(self):
        return (f"<kiln.DeviceArray shape={self.shape} dtype={self.dtype} "
                f"on {self.target} device {self.device}>")


def to_device(array, target="vulkan", device=0):
    """Copies numpy `array` to `device` of `target`: a kiln.DeviceArray."""
    if isinstance(array, DeviceArray):
        array = array.numpy()
    array = np.ascontiguousarray(array)
    result = DeviceArray(target, device, array.shape, array.dtype)
    result.copy_from(array)
    return result
