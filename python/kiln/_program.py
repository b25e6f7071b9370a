"""kiln.compile() and kiln.Program: host functions called with numpy arrays."""

import os
import warnings

import numpy as np

from . import _kiln
from . import _types
from ._errors import CompileError

TARGETS = ("vulkan", "cuda", "spirv-cpu")


def _source_of(source):
    """(is_file, text or path) for compile()'s `source`."""
    if isinstance(source, os.PathLike):
        path = os.fsdecode(os.fspath(source))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no MLIR file '{path}'")
        return True, path
    if isinstance(source, bytes):
        source = source.decode()
    if not isinstance(source, str):
        raise TypeError("compile() takes MLIR text or a path (str or "
                        f"os.PathLike), not {type(source).__name__}")
    if "\n" not in source and "{" not in source:
        if os.path.isfile(source):
            return True, source
        stripped = source.strip()
        if stripped and (stripped.endswith(".mlir") or os.sep in stripped):
            raise FileNotFoundError(f"no MLIR file '{stripped}'")
    return False, source


def _device_list(device):
    if device is None:
        return ""
    if isinstance(device, bool):
        raise TypeError("device takes an index, a name or a list of them")
    if isinstance(device, (int, np.integer)):
        return str(int(device))
    if isinstance(device, str):
        return device
    if isinstance(device, (list, tuple)):
        return ",".join(_device_list(d) for d in device)
    raise TypeError("device takes an index, a name or a list of them, not "
                    f"{type(device).__name__}")


def compile(source, target="vulkan", *, target_env=None, opt_level=0,
            device=None, name=None, mpi=None):
    """Compiles an MLIR program for `target` and loads it: a kiln.Program.

    `source` is a path (str or os.PathLike) or the MLIR text; `name` is what
    diagnostics call text (default "<source>"). `target` is "vulkan",
    "cuda" or "spirv-cpu"; `target_env` is the runners' --target-env
    (Vulkan, spirv-cpu) or --chip (CUDA), "device" by default; `opt_level`
    the host's -O (0-3); `device` the runtime's device list ("0", "0,1", a
    name, an index or a list), set before the runtime's first use; `mpi`
    "openmpi" or "mpich". A program that does not compile raises
    kiln.CompileError.
    """
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; supported: "
                         + ", ".join(TARGETS))
    if isinstance(opt_level, bool) or not isinstance(opt_level, int):
        raise TypeError("opt_level takes an int, 0 to 3")
    if not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level={opt_level}: 0 to 3")
    for option, value in (("target_env", target_env), ("name", name),
                          ("mpi", mpi)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{option} takes a str")
    if mpi is not None and mpi not in ("openmpi", "mpich"):
        raise ValueError(f"unknown mpi={mpi!r}; supported: openmpi, mpich")
    is_file, text = _source_of(source)
    program, failure, error, diagnostics, notes = _kiln.compile(
        text, is_file, name or "<source>", target, target_env or "",
        opt_level, _device_list(device), mpi or "")
    for note in notes:
        warnings.warn(note, stacklevel=2)
    if program is None:
        if failure == "argument":
            raise ValueError(error)
        if failure == "runtime":
            raise _kiln.RuntimeError(error)
        raise CompileError(diagnostics or [error])
    return Program(program)


class Program:
    """A compiled program: call its public host functions as attributes
    (`prog.NAME(*args)`) or by name (`prog["NAME"](*args)`)."""

    def __init__(self, core):
        self._core = core
        self._functions = {
            info["name"]: Function(self, index, info)
            for index, info in enumerate(core.functions)
        }
        self._kernels = core.kernels

    @property
    def target(self):
        """"vulkan", "cuda" or "spirv-cpu"."""
        return self._core.target

    @property
    def functions(self):
        """The names of the public host functions."""
        return list(self._functions)

    def _missing(self, name):
        names = ", ".join(self._functions) or "none"
        return f"the program has no public function @{name} (its functions: {names})"

    def __getitem__(self, name):
        try:
            return self._functions[name]
        except KeyError:
            raise KeyError(self._missing(name)) from None

    def __getattr__(self, name):
        if name.startswith("__") or "_functions" not in self.__dict__:
            raise AttributeError(name)
        try:
            return self._functions[name]
        except KeyError:
            raise AttributeError(self._missing(name)) from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._functions))

    def __repr__(self):
        return (f"<kiln.Program for {self.target}: "
                f"{', '.join(self._functions) or 'no functions'}>")

    def kernel(self, module, name):
        """The kernel `name` of GPU module `module`, launched as
        `prog.kernel("m", "k")[grid, block](*args)`."""
        from ._kernel import Kernel
        for info in self._kernels:
            if info["module"] == module and info["name"] == name:
                return Kernel(self, info)
        kernels = ", ".join(f"{k['module']}::{k['name']}"
                            for k in self._kernels) or "none"
        raise KeyError(f"the program has no kernel {module}::{name} "
                       f"(its kernels: {kernels})")


def _signature(name, types):
    return f"@{name}(" + ", ".join(t["text"] for t in types) + ")"


def memref_descriptor(value, t, what, target, keep):
    """The descriptor (an int64 array) of `value` passed as memref type `t`.

    Arrays and device arrays are kept alive in `keep` for the call.
    """
    from ._device import DeviceArray
    if t["kind"] != "memref":
        raise TypeError(f"{what} has type {t['text']}, which kiln cannot "
                        "pass")
    element = t["element"]
    if isinstance(value, DeviceArray):
        if value.target != target:
            raise ValueError(f"{what}: a {value.target} device array, for a "
                             f"{target} program")
        dtype, shape, itemsize = value.dtype, value.shape, value.dtype.itemsize
        strides = []
        stride = 1
        for size in reversed(shape):
            strides.insert(0, stride)
            stride *= size
        data = value._pointer
    else:
        if not isinstance(value, np.ndarray):
            if hasattr(value, "__dlpack__"):
                from ._device import from_dlpack
                value = from_dlpack(value)
            elif isinstance(value, (list, tuple)):
                raise TypeError(f"{what} is {t['text']}: pass a numpy array "
                                f"(np.array(...)), not a {type(value).__name__}")
            else:
                raise TypeError(f"{what} is {t['text']}: pass a numpy "
                                f"array, not {type(value).__name__}")
        dtype, shape, itemsize = value.dtype, value.shape, value.itemsize
        if not value.flags.writeable:
            raise ValueError(f"{what} is a read-only array; the function may "
                             "write to it: pass a writeable copy "
                             "(np.array(a))")
        strides = []
        for axis, byte_stride in enumerate(value.strides):
            if byte_stride % itemsize:
                raise ValueError(
                    f"{what}: its stride in dimension {axis} ({byte_stride} "
                    f"bytes) is no multiple of its {itemsize}-byte elements, "
                    "which a memref cannot describe: pass "
                    "np.ascontiguousarray(a)")
            if byte_stride < 0 and shape[axis] > 1:
                raise ValueError(
                    f"{what}: its stride in dimension {axis} is negative, "
                    "which kiln does not pass as a memref: pass "
                    "np.ascontiguousarray(a)")
            strides.append(byte_stride // itemsize)
        data = _types.address(value)
        keep.append(value)
    if not _types.accepts(element, dtype):
        wanted = _types.dtype_names(element) or "no numpy dtype"
        raise TypeError(f"{what} is {t['text']}: its elements are "
                        f"{element} ({wanted}), the array's {dtype}")
    if len(shape) != len(t["shape"]):
        raise ValueError(f"{what} is {t['text']}, of rank {len(t['shape'])}; "
                         f"the array has rank {len(shape)} (shape "
                         f"{tuple(shape)})")
    for axis, (size, static) in enumerate(zip(shape, t["shape"])):
        if static is not None and size != static:
            raise ValueError(f"{what} is {t['text']}; the array's size in "
                             f"dimension {axis} is {size}, not {static} "
                             f"(shape {tuple(shape)})")
    offset = 0
    if t["strided"]:
        empty = any(size == 0 for size in shape)
        for axis, (stride, static) in enumerate(zip(strides, t["strides"])):
            if static is None or empty or shape[axis] <= 1:
                if static is not None:
                    strides[axis] = static
                continue
            if stride != static:
                raise ValueError(
                    f"{what} is {t['text']}, whose layout has stride {static} "
                    f"in dimension {axis}; the array's is {stride} (strides "
                    f"in elements {tuple(strides)}): pass "
                    "np.ascontiguousarray(a), or declare the argument with a "
                    "strided layout (memref<..., strided<[?, ...], offset: "
                    "?>>)")
        if t["offset"] is not None:
            offset = t["offset"]
    aligned = data - offset * itemsize
    descriptor = np.array([aligned, aligned, offset, *shape, *strides],
                          np.int64) if shape else np.array(
                              [aligned, aligned, offset], np.int64)
    return descriptor


class Function:
    """A public host function of a Program; calling it runs it."""

    def __init__(self, program, index, info):
        self._program = program
        self._index = index
        self.name = info["name"]
        self.arguments = info["arguments"]
        self.results = info["results"]
        for i, t in enumerate(self.arguments):
            if t["kind"] == "unsupported":
                self._unsupported = (f"argument {i} of @{self.name} has type "
                                     f"{t['text']}, which kiln cannot pass")
                break
        else:
            self._unsupported = None
        for i, t in enumerate(self.results):
            if t["kind"] == "unsupported" and not self._unsupported:
                self._unsupported = (f"result {i} of @{self.name} has type "
                                     f"{t['text']}, which kiln cannot return")

    @property
    def signature(self):
        text = _signature(self.name, self.arguments)
        if self.results:
            text += " -> " + ", ".join(t["text"] for t in self.results)
        return text

    def __repr__(self):
        return f"<kiln function {self.signature}>"

    def __call__(self, *args):
        if self._unsupported:
            raise TypeError(self._unsupported)
        if len(args) != len(self.arguments):
            raise TypeError(f"{self.signature} takes {len(self.arguments)} "
                            f"argument(s), got {len(args)}")
        target = self._program.target
        keep = []
        slots = []
        results = self.results
        by_pointer = len(results) > 1 or (
            len(results) == 1 and results[0]["kind"] == "memref")
        result_buffer = None
        if by_pointer:
            offsets, size = _types.layout(results)
            result_buffer = np.zeros(size, np.uint8)
            pointer = np.array([_types.address(result_buffer)], np.uintp)
            keep.append(pointer)
            slots.append(_types.address(pointer))
        for i, (value, t) in enumerate(zip(args, self.arguments)):
            what = f"argument {i} of @{self.name}"
            if t["kind"] == "scalar":
                storage = _types.scalar_bytes(t["element"], value, what)
                keep.append(storage)
                slots.append(_types.address(storage))
            else:
                descriptor = memref_descriptor(value, t, what, target, keep)
                pointer = np.array([_types.address(descriptor)], np.uintp)
                keep += [descriptor, pointer]
                slots.append(_types.address(pointer))
        if len(results) == 1 and not by_pointer:
            result_buffer = np.zeros(8, np.uint8)
            slots.append(_types.address(result_buffer))
        packed = np.array(slots or [0], np.uintp)
        self._program._core.call(self._index, _types.address(packed))
        del keep
        if not results:
            return None
        if not by_pointer:
            return _types.scalar_value(results[0]["element"], result_buffer)
        values = []
        for t, offset in zip(results, offsets):
            if t["kind"] == "scalar":
                values.append(_types.scalar_value(t["element"],
                                                  result_buffer[offset:]))
            else:
                values.append(_read_memref(t, result_buffer[offset:], target))
        return values[0] if len(values) == 1 else tuple(values)


def _read_memref(t, raw, target):
    """A numpy copy of the memref whose descriptor is at the start of `raw`."""
    rank = len(t["shape"])
    words = np.frombuffer(raw[:8 * (3 + 2 * rank)].tobytes(), np.int64)
    aligned, offset = int(words[1]), int(words[2])
    shape = tuple(int(s) for s in words[3:3 + rank])
    strides = [int(s) for s in words[3 + rank:3 + 2 * rank]]
    dtype = _types.dtype_of(t["element"])
    itemsize = dtype.itemsize
    if any(size == 0 for size in shape):
        return np.empty(shape, dtype)
    low = sum(min(0, (size - 1) * stride) for size, stride in zip(shape, strides))
    high = sum(max(0, (size - 1) * stride) for size, stride in zip(shape, strides))
    first = aligned + (offset + low) * itemsize
    span = (high - low + 1) * itemsize
    staging = np.empty(span, np.uint8)
    # Through the runtime: the memory may be a device allocation.
    _kiln.copy(target, 0, _types.address(staging), first, span)
    base = staging.view(dtype)
    view = np.lib.stride_tricks.as_strided(
        base[-low:], shape, [s * itemsize for s in strides])
    return view.copy()
