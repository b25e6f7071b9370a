"""kiln.timing(): each kernel launch's GPU time."""

import collections

from . import _kiln

Launch = collections.namedtuple("Launch", "kernel device gpu_us")
Launch.__doc__ = """One launch: the kernel's name, the device (its index in
the runtime's device list) and its GPU time in microseconds."""


class timing:
    """Records the launches made inside `with kiln.timing() as t:`.

    `t.launches` lists them (kiln.Launch) in the order they completed.
    `target` limits it to one runtime; by default every runtime records.
    """

    def __init__(self, target=None):
        from ._program import TARGETS
        if target is not None and target not in TARGETS:
            raise ValueError(f"unknown target {target!r}; supported: "
                             + ", ".join(TARGETS))
        self._targets = [target] if target else list(TARGETS)
        self._required = target is not None
        self._started = {}
        self.launches = []

    def __enter__(self):
        for target in self._targets:
            try:
                self._started[target] = _kiln.timing_start(target)
            except _kiln.RuntimeError:
                if self._required:
                    self.__exit__(None, None, None)
                    raise
        return self

    def __exit__(self, *exc):
        for target, start in self._started.items():
            self.launches += [Launch(*launch)
                              for launch in _kiln.timing_stop(target, start)]
        self._started = {}
        return False
