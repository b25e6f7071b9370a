// Every kernel of the corpus (test/Corpus) that compiles for Vulkan also
// compiles for CUDA, to PTX for the default chip (sm_90) and an older one.
// RUN: rm -rf %t && %python %S/Inputs/compile-corpus.py %kiln_src_root/test/Corpus %t --target=cuda --emit=ptx | FileCheck %s
// RUN: rm -rf %t && %python %S/Inputs/compile-corpus.py %kiln_src_root/test/Corpus %t --target=cuda --emit=ptx --chip=sm_75 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: {{^(4[0-9]|[5-9][0-9])}} compiled, 0 failed
