// An SPMD program with a kernel on each rank and MPI on device memory
// (Inputs/dot.mlir) under mpirun, through every front door: the Vulkan and
// spirv-cpu runners, `kiln-opt | mlir-runner` with the runtime library, and
// an executable; 2 ranks, and 4 on spirv-cpu. Each rank's lines are tagged
// [job,rank] by mpirun, so their order does not matter.
// REQUIRES: mpi, vulkan-runner
// RUN: %mpirun -n 2 --tag-output kiln-vulkan-runner %S/Inputs/dot.mlir --validate | FileCheck %s --check-prefix=TWO
// RUN: %mpirun -n 2 --tag-output kiln-spirv-cpu-runner %S/Inputs/dot.mlir | FileCheck %s --check-prefix=TWO
// RUN: kiln-opt %S/Inputs/dot.mlir --kiln-gpu-to-vulkan > %t.ll.mlir
// RUN: %mpirun -n 2 --tag-output %mlir_runner %t.ll.mlir -e main --entry-point-result=void --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=TWO
// RUN: kiln-compile %S/Inputs/dot.mlir --emit=exe -o %t.exe
// RUN: %mpirun -n 2 --tag-output %t.exe --validate | FileCheck %s --check-prefix=TWO
// RUN: %mpirun -n 4 --tag-output kiln-spirv-cpu-runner %S/Inputs/dot.mlir | FileCheck %s --check-prefix=FOUR

// TWO-DAG: [1,0]<stdout>:[64,  82,  104,  130,  160,  194,  232,  274]
// TWO-DAG: [1,1]<stdout>:[64,  82,  104,  130,  160,  194,  232,  274]
// TWO-DAG: [1,1]<stdout>:[0,  1,  4,  9,  16,  25,  36,  49]

// FOUR-DAG: [1,0]<stdout>:[896,  996,  1104,  1220,  1344,  1476,  1616,  1764]
// FOUR-DAG: [1,1]<stdout>:[896,  996,  1104,  1220,  1344,  1476,  1616,  1764]
// FOUR-DAG: [1,2]<stdout>:[896,  996,  1104,  1220,  1344,  1476,  1616,  1764]
// FOUR-DAG: [1,3]<stdout>:[896,  996,  1104,  1220,  1344,  1476,  1616,  1764]
// FOUR-DAG: [1,1]<stdout>:[0,  1,  4,  9,  16,  25,  36,  49]
