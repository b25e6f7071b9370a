// The instruction counts of kiln-bench's kernels (benchmarks/kernel_counts.py:
// loads, stores, access chains and arithmetic of each kernel's SPIR-V;
// global and shared loads and stores, fma and arithmetic of its PTX) may not
// grow above those recorded in benchmarks/kernel-counts.json: a change that
// makes a kernel's code bigger fails here, without timing anything, naming
// the kernel and the count. Record the counts again with --write when the
// growth is meant.
// RUN: %python %kiln_src_root/benchmarks/kernel_counts.py --build %kiln_obj_root --check %kiln_src_root/benchmarks/kernel-counts.json | FileCheck %s
// CHECK: kernel_counts.py: no count grew (18 kernels)
//
// The check fails on a count above the record.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); d['sgemm_register']['ptx']['fma'] -= 1; json.dump(d, open(sys.argv[2], 'w'))" %kiln_src_root/benchmarks/kernel-counts.json %t.json
// RUN: not %python %kiln_src_root/benchmarks/kernel_counts.py --build %kiln_obj_root --check %t.json | FileCheck %s --check-prefix=GREW
// GREW: grew: sgemm_register ptx fma: 256, was 255
// GREW: kernel_counts.py: 1 counts grew against
