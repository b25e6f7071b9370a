// The test bundle's comparison (test/bundle/compare.awk): integers exactly,
// other numbers within a tolerance, NaN signs and memref addresses ignored,
// the rest as text.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'Memref base@ = 0x55aa rank = 1 offset = 0\n[1.5,  2,  -nan,  1e+20,  -0]\n' > %t/expected
// RUN: printf 'Memref base@ = 0x77bb rank = 1 offset = 0\n[1.5004,  2,  nan,  1.0005e+20,  0]\n' > %t/close
// RUN: awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/close
// RUN: printf 'Memref base@ = 0x77bb rank = 1 offset = 0\n[1.51,  2,  nan,  1e+20,  0]\n' > %t/far
// RUN: not awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/far | FileCheck %s --check-prefix=FAR
// RUN: env KILN_BUNDLE_RTOL=0.01 awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/far
// RUN: printf 'Memref base@ = 0x77bb rank = 1 offset = 0\n[1.5,  3,  nan,  1e+20,  0]\n' > %t/int
// RUN: not awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/int | FileCheck %s --check-prefix=INT
// RUN: printf 'Memref base@ = 0x77bb rank = 1 offset = 0\n[1.5,  2,  nan,  1e+20]\n' > %t/short
// RUN: not awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/short | FileCheck %s --check-prefix=SHORT
// RUN: printf 'Unranked Memref base@ = 0x77bb rank = 1 offset = 0\n[1.5,  2,  nan,  1e+20,  0]\n' > %t/text
// RUN: not awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/text | FileCheck %s --check-prefix=TEXT
// RUN: : > %t/empty
// RUN: not awk -f %kiln_src_root/test/bundle/compare.awk %t/expected %t/empty | FileCheck %s --check-prefix=EMPTY

// FAR: line 2: expected 1.5, got 1.51 (beyond the tolerance)
// INT: line 2: expected 2, got 3
// SHORT: line 2: expected ',', got ']'
// TEXT: line 1: expected 'Memref', got 'Unranked'
// EMPTY: line 1: expected 21 tokens, got 0
