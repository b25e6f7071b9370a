// 6,000 nested regions, past the depth at which MLIR's recursive parser,
// verifier and printer overflow an 8 MiB stack: Kiln's tools run on a thread
// with a large stack (include/kiln/Driver/LargeStack.h), so they compile and
// run the program instead of crashing with SIGSEGV.
// RUN: %python %S/Inputs/deep-nesting.py 6000 > %t.mlir
// RUN: kiln-opt %t.mlir | FileCheck %s --check-prefix=OPT
// RUN: kiln-compile %t.mlir --emit=mlir -o %t.out.mlir
// RUN: kiln-spirv-cpu-runner %t.mlir | FileCheck %s
// OPT: scf.if
// CHECK: 7
