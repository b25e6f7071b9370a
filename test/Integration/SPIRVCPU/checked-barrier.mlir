// A barrier that not every invocation of a workgroup reaches: checked mode
// stops with an error naming the kernel, the workgroup, an invocation that
// returned and the barrier the others wait at. Unchecked, the waiting
// invocations go on once the others have returned (no hang), as on GPUs
// where exited threads leave the barrier.
// RUN: not kiln-spirv-cpu-runner %s --checked 2>&1 | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s --check-prefix=UNCHECKED

// CHECK: kiln-spirv-cpu: kernel 'main_kernel': workgroup (0, 0, 0): invocation (4, 0, 0) returned without reaching the barrier at {{.*}}checked-barrier.mlir:[[@LINE+17]]:7 that invocation (0, 0, 0) waits at
// UNCHECKED: [1,  1,  1,  1,  0,  0,  0,  0]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c4 : index
    scf.if %low {
      gpu.barrier
      memref.store %one, %buf[%tx] : memref<8xf32>
    }
    gpu.terminator
  }
  %u = memref.cast %buf : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %buf : memref<8xf32>
  return
}
