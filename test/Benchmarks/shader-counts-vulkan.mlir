// The regression gate on lavapipe: kiln-bench --count-instructions counts
// the instructions lavapipe's JIT-compiled shaders execute per launch (the
// count repeats to the instruction), and every Kiln kernel at the smoke
// sizes is checked against benchmarks/shader-counts.json: a count more than
// 1% above the record fails, as does a Kiln/GLSL ratio more than 1% above
// the recorded one or above 1 (every Kiln kernel executes at most glslc's
// count). Lavapipe compiles for the host CPU, so on a CPU or
// driver other than the record's only the ratios are compared. After a
// change meant to move a count: python3 benchmarks/shader_counts.py
// --backend vulkan --write benchmarks/shader-counts.json
// REQUIRES: valgrind, vulkan-cpu-only
// RUN: %python %kiln_src_root/benchmarks/shader_counts.py --backend vulkan --build %kiln_obj_root --save-results %t.json --check %kiln_src_root/benchmarks/shader-counts.json | FileCheck %s
// CHECK: shader_counts.py: no count grew (vulkan, 43 cases)
//
// The JSON report has the counts and each Kiln variant's ratio over glslc's.
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "name": "stream_copy_f32/kiln/vulkan/4133/
// JSON: "instructions": {{[1-9]\.[0-9]+e\+0[5-9]}},
// JSON-NEXT: "instructions_ratio": {{(9\.[0-9]+e-01|1\.0[0-9]+e\+00)}},
//
// A Kiln count 2% above the record fails on the record's machine.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); c = d['vulkan']['counts']; c['transpose/kiln/96x160'] = int(c['transpose/kiln/96x160'] / 1.02); json.dump(d, open(sys.argv[2], 'w'))" %kiln_src_root/benchmarks/shader-counts.json %t.grew.json
// RUN: not %python %kiln_src_root/benchmarks/shader_counts.py --backend vulkan --results %t.json --check %t.grew.json | FileCheck %s --check-prefix=GREW
// GREW-DAG: grew: transpose/kiln/96x160: {{[0-9]+}}, was {{[0-9]+}} (+2.0{{[0-9]}}%)
// GREW-DAG: grew against the reference: transpose/kiln/96x160: 0.{{[0-9]+}}, was 0.{{[0-9]+}}
//
// On another CPU, only the ratios: the same change still fails.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); d['vulkan']['cpu'] = 'another CPU'; json.dump(d, open(sys.argv[1], 'w'))" %t.grew.json
// RUN: not %python %kiln_src_root/benchmarks/shader_counts.py --backend vulkan --results %t.json --check %t.grew.json | FileCheck %s --check-prefix=OTHER
// OTHER: recorded on {{.*}}, another CPU; this is {{.*}}: comparing Kiln's counts over the references' only
// OTHER-NOT: grew: transpose
// OTHER: grew against the reference: transpose/kiln/96x160
//
// Every Kiln kernel executes at most glslc's count: one that executes
// more fails, whatever the record says.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); b = [x for x in d['benchmarks'] if x['name'].startswith('stream_triad_f32/kiln/')][0]; b['instructions'] *= 1.001; json.dump(d, open(sys.argv[2], 'w'))" %t.json %t.above.json
// RUN: not %python %kiln_src_root/benchmarks/shader_counts.py --backend vulkan --results %t.above.json --check %kiln_src_root/benchmarks/shader-counts.json | FileCheck %s --check-prefix=ABOVE
// ABOVE: above the reference: stream_triad_f32/kiln/4133: 1.0010 of glsl's count
// ABOVE: shader_counts.py: 1 problems against the record of vulkan
