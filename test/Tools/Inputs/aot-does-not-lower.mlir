// A kernel using an op with no SPIR-V lowering: the compilation stops with a
// located error and writes nothing.
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = memref.alloc() : memref<1xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %t = memref.alloc() : memref<1xf32>
      %v = memref.load %t[%bx] : memref<1xf32>
      memref.store %v, %m[%tx] : memref<1xf32>
      gpu.terminator
    }
    return
  }
}
