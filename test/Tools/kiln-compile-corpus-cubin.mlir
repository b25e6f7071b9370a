// REQUIRES: cuda-toolkit
// With ptxas, every corpus kernel assembles to a cubin for sm_90 and for
// sm_80, and the default executable format (fatbin) builds too.
// RUN: rm -rf %t && %python %S/Inputs/compile-corpus.py %kiln_src_root/test/Corpus %t --target=cuda --emit=cubin | FileCheck %s
// RUN: rm -rf %t && %python %S/Inputs/compile-corpus.py %kiln_src_root/test/Corpus %t --target=cuda --emit=cubin --chip=sm_80 | FileCheck %s
// RUN: rm -rf %t && %python %S/Inputs/compile-corpus.py %kiln_src_root/test/Corpus %t --target=cuda --emit=obj | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: {{^(4[0-9]|[5-9][0-9])}} compiled, 0 failed
