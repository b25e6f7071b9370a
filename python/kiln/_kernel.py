"""Kernels launched directly: prog.kernel("module", "func")[grid, block](*args)."""

import numpy as np

from . import _kiln
from . import _types
from ._program import memref_descriptor


def _dims(value, what):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (int(value),)
    if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= 3:
        raise TypeError(f"the {what} is an int or a tuple of 1 to 3 ints")
    dims = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"the {what} is an int or a tuple of 1 to 3 ints")
        if v < 1:
            raise ValueError(f"the {what} {tuple(value)} has a size below 1")
        dims.append(int(v))
    return dims + [1] * (3 - len(dims))


class Kernel:
    """A kernel of a Program; `kernel[grid, block](*args)` launches it and
    waits for it (`kernel[grid, block, shared_bytes]` adds dynamic shared
    memory)."""

    def __init__(self, program, info):
        self._program = program
        self.module = info["module"]
        self.name = info["name"]
        self.arguments = info["arguments"]
        self._modules = {}

    def __repr__(self):
        args = ", ".join(t["text"] for t in self.arguments)
        return f"<kiln kernel {self.module}::{self.name}({args})>"

    def __getitem__(self, config):
        if not isinstance(config, tuple) or len(config) not in (2, 3):
            raise TypeError("launch a kernel as kernel[grid, block](*args) "
                            "or kernel[grid, block, shared_bytes](*args)")
        grid = _dims(config[0], "grid")
        block = _dims(config[1], "block")
        shared = int(config[2]) if len(config) == 3 else 0
        return lambda *args, device=0: self._launch(grid, block, shared,
                                                    device, args)

    def _function(self, device):
        if device not in self._modules:
            target = self._program.target
            blob = self._program._core.binary(self.module)
            if blob is None:
                raise KeyError(f"the program has no binary of GPU module "
                               f"{self.module}")
            module = _kiln.load_module(target, device, blob)
            function = _kiln.get_function(target, module, self.name)
            self._modules[device] = (module, function)
        return self._modules[device][1]

    def _launch(self, grid, block, shared, device, args):
        if len(args) != len(self.arguments):
            raise TypeError(f"{self!r} takes {len(self.arguments)} "
                            f"argument(s), got {len(args)}")
        target = self._program.target
        keep = []
        # Each param points at one value: a memref contributes its
        # descriptor's words, a scalar its value.
        addresses = []
        for i, (value, t) in enumerate(zip(args, self.arguments)):
            what = f"argument {i} of kernel {self.module}::{self.name}"
            if t["kind"] == "scalar":
                storage = _types.scalar_bytes(t["element"], value, what)
                keep.append(storage)
                addresses.append(_types.address(storage))
            else:
                descriptor = memref_descriptor(value, t, what, target, keep)
                keep.append(descriptor)
                base = _types.address(descriptor)
                addresses += [base + 8 * k for k in range(len(descriptor))]
        params = np.array(addresses or [0], np.uintp)
        _kiln.launch(target, device, self._function(device), grid, block,
                     shared, _types.address(params), len(addresses))
        del keep

    def __del__(self):
        for device, (module, _) in getattr(self, "_modules", {}).items():
            try:
                _kiln.unload_module(self._program.target, device, module)
            except Exception:
                pass
