// Every kernel of the corpus (test/Corpus) that compiles to SPIR-V also
// compiles to a host object: the host lowering and LLVM's code generation
// accept what the device pipeline accepts.
// RUN: rm -rf %t && %python %S/Inputs/compile-corpus.py %kiln_src_root/test/Corpus %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: {{^(4[0-9]|[5-9][0-9])}} compiled, 0 failed
