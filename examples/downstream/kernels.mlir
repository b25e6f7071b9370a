// scale(a, x): x[i] = a * x[i] on the GPU, for a memref of any length.
func.func @scale(%a: f32, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %blocks = arith.ceildivui %n, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.mulf %a, %v : f32
      memref.store %w, %x[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
