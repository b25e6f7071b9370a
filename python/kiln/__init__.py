"""Kiln: compile MLIR gpu-dialect programs and run them on numpy arrays.

    import numpy as np, kiln
    prog = kiln.compile("saxpy.mlir", target="spirv-cpu")
    prog.saxpy(2.0, x, y)

See docs/python.md.
"""

from . import _kiln
from ._errors import CompileError, RuntimeError
from ._program import Program, compile
from ._device import Device, DeviceArray, devices, from_dlpack, to_device
from ._timing import Launch, timing

__version__ = _kiln.__version__

__all__ = [
    "CompileError",
    "Device",
    "DeviceArray",
    "Launch",
    "Program",
    "RuntimeError",
    "compile",
    "devices",
    "from_dlpack",
    "timing",
    "to_device",
    "__version__",
]
