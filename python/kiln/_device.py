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
        # Not np.ascontiguousarray, which makes a rank-0 array rank 1.
        array = np.asarray(array, order="C")
        if array.shape != self.shape or array.dtype != self.dtype:
            raise ValueError(f"copy_from: an array of shape {array.shape} "
                             f"and dtype {array.dtype}, for a device array of "
                             f"shape {self.shape} and dtype {self.dtype}")
        if self.nbytes:
            _kiln.copy(self.target, self.device, self._pointer,
                       _types.address(array), self.nbytes)

    # DLPack device types (dlpack.h's DLDeviceType).
    _DLPACK_DEVICES = {"spirv-cpu": 1, "cuda": 2, "vulkan": 7}
    # DLPack type codes (dlpack.h's DLDataTypeCode) by numpy dtype kind.
    _DLPACK_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}

    def __dlpack_device__(self):
        """(device type, device index) as DLPack has them: kDLCPU for
        spirv-cpu, whose device memory is host memory, kDLCUDA, kDLVulkan."""
        return (self._DLPACK_DEVICES[self.target], self.device)

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None,
                   copy=None):
        """A DLPack capsule of the array's memory, without a copy: host
        memory on spirv-cpu, a CUDA device pointer on CUDA, and on Vulkan the
        address Kiln's Vulkan runtime gave the allocation (meaningful to Kiln
        only). The capsule keeps this array alive until its consumer is done.

        Kiln finishes every copy and launch before returning, so the memory
        is ready on any `stream`. `max_version` is accepted and a DLPack 0.x
        capsule returned, as DLPack allows; `dl_device` other than the
        array's own and `copy=True` are refused.
        """
        if stream is not None and (isinstance(stream, bool)
                                   or not isinstance(stream, int)):
            raise TypeError(f"__dlpack__: stream is None or an int, not "
                            f"{type(stream).__name__}")
        if dl_device is not None and tuple(dl_device) != \
                self.__dlpack_device__():
            raise BufferError(f"__dlpack__: the array is on DLPack device "
                              f"{self.__dlpack_device__()}, not {dl_device}; "
                              "kiln does not copy across devices")
        if copy:
            raise BufferError("__dlpack__: kiln exports the array's memory "
                              "without a copy (copy=True is not supported); "
                              "use .numpy() for a copy")
        strides = []
        stride = 1
        for size in reversed(self.shape):
            strides.insert(0, stride)
            stride *= size
        return _kiln.dlpack_capsule(
            self, self._pointer, list(self.shape), strides,
            self._DLPACK_CODES[self.dtype.kind], self.dtype.itemsize * 8,
            self._DLPACK_DEVICES[self.target], self.device)

    def _host_view(self):
        """A numpy array over the memory (spirv-cpu), keeping this alive."""
        owner = self

        class _Memory:
            __array_interface__ = {
                "shape": self.shape,
                "typestr": self.dtype.str,
                "data": (self._pointer, False),
                "version": 3,
            }
            array = owner

        return np.asarray(_Memory())

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


_DTYPES = {np.dtype(d) for d in (
    np.float16, np.float32, np.float64, np.bool_, np.int8, np.int16,
    np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)}


def from_dlpack(obj):
    """An array from any object with __dlpack__: a numpy array sharing the
    memory of a CPU tensor (no copy), which passes wherever a memref goes."""
    if isinstance(obj, DeviceArray):
        if obj.target == "spirv-cpu":
            return obj._host_view()
        return obj
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(f"from_dlpack() takes an object with __dlpack__, not "
                        f"{type(obj).__name__}")
    device_type, _ = obj.__dlpack_device__()
    if device_type not in (1, 3):
        raise BufferError(f"from_dlpack(): DLPack device type {device_type} "
                          "is not host memory; kiln takes CPU tensors (and "
                          "its own DeviceArrays), not other libraries' "
                          "device memory: copy it to the host first")
    return writeable_view(np.from_dlpack(obj), obj)


def writeable_view(array, owner):
    """`array`'s memory as a writeable numpy array that keeps `owner`
    alive: numpy marks what it imports through DLPack read-only, which has no
    such flag, and a function may write into its memref arguments."""
    if array.flags.writeable:
        return array

    class _Memory:
        __array_interface__ = {
            "shape": array.shape,
            "typestr": array.dtype.str,
            "data": (array.__array_interface__["data"][0], False),
            "strides": array.strides,
            "version": 3,
        }
        keep = (array, owner)

    return np.asarray(_Memory())


def to_device(array, target="vulkan", device=0):
    """Copies numpy `array` to `device` of `target`: a kiln.DeviceArray."""
    _check_target(target)
    if isinstance(array, DeviceArray):
        array = array.numpy()
    if not isinstance(array, np.ndarray):
        if hasattr(array, "__dlpack__"):
            array = np.from_dlpack(array)
        else:
            raise TypeError("to_device() takes a numpy array, not "
                            f"{type(array).__name__}")
    if array.dtype not in _DTYPES:
        raise TypeError(f"to_device(): arrays of {array.dtype} have no MLIR "
                        "element type kiln passes")
    if isinstance(device, bool) or not isinstance(device, (int, np.integer)):
        raise TypeError("device is an index in the runtime's device list")
    # Not np.ascontiguousarray, which makes a rank-0 array rank 1.
    array = np.asarray(array, order="C")
    result = DeviceArray(target, device, array.shape, array.dtype)
    result.copy_from(array)
    return result
