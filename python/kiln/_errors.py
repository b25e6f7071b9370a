"""The exceptions kiln raises besides Python's own."""

from . import _kiln

# A runtime failure inside a call: the runtime's message, e.g.
# "kiln-vulkan: ...". The process keeps running.
RuntimeError = _kiln.RuntimeError
RuntimeError.__module__ = "kiln"


class CompileError(Exception):
    """A program that does not compile.

    `diagnostics` holds each error as "file:line:col: error: message" (notes
    on lines of their own below it); the message is all of them.
    """

    def __init__(self, diagnostics, message=None):
        self.diagnostics = list(diagnostics)
        super().__init__(message or "\n".join(self.diagnostics))
