// y[i] = a * x[i] + y[i] over dynamically sized vectors, 64 threads a block.
module attributes {gpu.container_module} {
  func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %len = memref.dim %x, %c0 : memref<?xf32>
      %inside = arith.cmpi ult, %i, %len : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %axi = arith.mulf %a, %xi : f32
        %r = arith.addf %axi, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }
}
