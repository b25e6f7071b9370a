// A kernel that calls a host function (kiln-compile-kernel-refusals.mlir).
func.func private @printMemrefF32(memref<*xf32>)
func.func @host_call(%m: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %u = memref.cast %m : memref<8xf32> to memref<*xf32>
    // CHECK: kernel-calls-host-function.mlir:[[@LINE+1]]:5: error: kernel 'host_call_kernel' calls 'printMemrefF32', which has no body in GPU module 'host_call_kernel': host functions cannot be called from kernels; a device function must be defined in the program
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.terminator
  }
  return
}
