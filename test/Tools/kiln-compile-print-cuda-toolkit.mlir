// kiln-compile --print-cuda-toolkit shows the toolkit the CUDA pipeline
// would use, or where it looked.
// RUN: not env -u CUDA_PATH PATH=%t.nowhere KILN_CUDA_PREFIXES=%t.nowhere kiln-compile --print-cuda-toolkit 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: kiln-compile: error: no CUDA toolkit found (looked in PATH, {{.*}}.nowhere)
// RUN: not kiln-compile --print-cuda-toolkit --cuda-path=%t.nowhere 2>&1 | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT: kiln-compile: error: no CUDA toolkit found (looked in --cuda-path={{.*}}.nowhere)

// A toolkit laid out by hand: bin/ptxas is what makes it one.
// RUN: rm -rf %t.tk && mkdir -p %t.tk/bin %t.tk/nvvm/libdevice
// RUN: printf '#!/bin/sh\n' > %t.tk/bin/ptxas && chmod +x %t.tk/bin/ptxas
// RUN: touch %t.tk/nvvm/libdevice/libdevice.10.bc
// RUN: env CUDA_PATH=%t.tk kiln-compile --print-cuda-toolkit | FileCheck %s --check-prefix=FOUND
// FOUND: root: {{.*}}.tk
// FOUND-NEXT: found by: CUDA_PATH
// FOUND-NEXT: ptxas: {{.*}}.tk/bin/ptxas
// FOUND-NEXT: fatbinary: none
// FOUND-NEXT: libdevice: {{.*}}.tk/nvvm/libdevice/libdevice.10.bc
// RUN: env -u CUDA_PATH PATH=%t.nowhere KILN_CUDA_PREFIXES=%t.nowhere:%t.tk kiln-compile --print-cuda-toolkit | FileCheck %s --check-prefix=PREFIX
// PREFIX: found by: {{.*}}.tk

// A ptxas on PATH that is a wrapper script in a directory without nvvm/
// (as /usr/local/bin/ptxas exec'ing the real one) yields to a complete
// toolkit at a conventional prefix, so libdevice is found.
// RUN: rm -rf %t.wrap && mkdir -p %t.wrap/bin
// RUN: printf '#!/bin/sh\n' > %t.wrap/bin/ptxas && chmod +x %t.wrap/bin/ptxas
// RUN: env -u CUDA_PATH PATH=%t.wrap/bin KILN_CUDA_PREFIXES=%t.nowhere:%t.tk kiln-compile --print-cuda-toolkit | FileCheck %s --check-prefix=WRAPPED
// WRAPPED: root: {{.*}}.tk
// WRAPPED-NEXT: found by: {{.*}}.tk
// WRAPPED: libdevice: {{.*}}.tk/nvvm/libdevice/libdevice.10.bc
// With no complete toolkit anywhere, the wrapper's directory is used.
// RUN: env -u CUDA_PATH PATH=%t.wrap/bin KILN_CUDA_PREFIXES=%t.nowhere kiln-compile --print-cuda-toolkit | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: root: {{.*}}.wrap
// PARTIAL-NEXT: found by: PATH
// PARTIAL: libdevice: none
