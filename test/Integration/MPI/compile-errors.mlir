// An mpi op Kiln cannot lower is a located error before anything runs, at
// every front door; here a sum of f16, which MPI has no datatype for.
// RUN: not kiln-vulkan-runner %s 2>&1 | FileCheck %s
// RUN: not kiln-compile %s --target=spirv-cpu --emit=exe -o %t.exe 2>&1 | FileCheck %s
// CHECK: compile-errors.mlir:[[@LINE+8]]:5: error: {{.*}}f16
module {
  func.func @main() {
    mpi.init
    %world = mpi.comm_world : !mpi.comm
    %a = memref.alloc() : memref<4xf16>
    %b = memref.alloc() : memref<4xf16>
    // A comment line so that the op is 8 lines below the CHECK.
    mpi.allreduce(%a, %b, MPI_SUM, %world) : memref<4xf16>, memref<4xf16>
    mpi.finalize
    return
  }
}
