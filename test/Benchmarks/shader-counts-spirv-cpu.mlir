// kiln-bench --count-instructions on spirv-cpu: the instructions each
// kernel's compiled code executes per launch, counted under callgrind (the
// kernels' own library only, not the runtime's loop over invocations), in
// the console, the JSON and the CSV report.
// REQUIRES: valgrind
// RUN: %kiln_obj_root/bin/kiln-bench --backend=spirv-cpu --count-instructions --smoke --gemm-sizes=64 --filter='stream_copy_f32|sgemm_tiled|empty_roundtrip' --csv=%t.csv > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// CHECK: Shader instructions per launch (callgrind, the driver's shader code only):
// CHECK-NEXT: kernel variant backend size instructions ratio
// CHECK-NEXT: stream_copy_f32 kiln spirv-cpu 4133 {{[1-9][0-9]+}}
// CHECK-NEXT: sgemm_tiled kiln spirv-cpu 64x64 {{[1-9][0-9]+}}
// CHECK-NEXT: empty_roundtrip kiln spirv-cpu 10 {{[1-9][0-9]*}}
// No timing goals under callgrind.
// CHECK-NOT: goals:
// CSV: "instructions","instructions_ratio"
// CSV: "stream_copy_f32/kiln/spirv-cpu/4133/{{[^"]*}}",{{.*}},{{[1-9][0-9]+}},0,
//
// The regression gate: every kernel at the smoke sizes against the counts
// recorded in benchmarks/shader-counts.json (spirv-cpu compiles its kernels
// for a generic x86-64 CPU, so they hold on any machine); a count more than
// 1% above the record fails, naming the case and both counts. After a
// change meant to move a count: python3 benchmarks/shader_counts.py
// --backend spirv-cpu --write benchmarks/shader-counts.json
// RUN: %python %kiln_src_root/benchmarks/shader_counts.py --backend spirv-cpu --build %kiln_obj_root --save-results %t.json --check %kiln_src_root/benchmarks/shader-counts.json | FileCheck %s --check-prefix=GATE
// GATE: shader_counts.py: no count grew (spirv-cpu, 19 cases)
//
// It fails on a count 2% above the record, and on a case it did not measure.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); c = d['spirv-cpu']['counts']; c['stream_copy_f32/kiln/4133'] = int(c['stream_copy_f32/kiln/4133'] / 1.02); c['gone/kiln/1'] = 1; json.dump(d, open(sys.argv[2], 'w'))" %kiln_src_root/benchmarks/shader-counts.json %t.grew.json
// RUN: not %python %kiln_src_root/benchmarks/shader_counts.py --backend spirv-cpu --results %t.json --check %t.grew.json | FileCheck %s --check-prefix=GREW
// GREW: not measured: gone/kiln/1 (recorded 1)
// GREW: grew: stream_copy_f32/kiln/4133: {{[0-9]+}}, was {{[0-9]+}} (+2.0{{[0-9]}}%)
// GREW: shader_counts.py: 2 problems against the record of spirv-cpu
