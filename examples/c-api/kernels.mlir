// Kernels called from C: examples/c-api/main.c. No @main here; every public
// function gets a C entry point `_mlir_ciface_NAME` that takes memrefs as
// pointers to descriptors, declared in the header kiln-compile writes:
//
//   build/bin/kiln-compile examples/c-api/kernels.mlir --emit=obj \
//       -o kernels.o --emit-header=kernels.h
//
// README.md in this folder builds and runs the whole example.
module attributes {gpu.container_module} {
  // y = a * x + y, 64 threads a block.
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

  // out[j][i] = in[i][j] for any strides: the caller can pass a view.
  func.func @transpose(%in: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                       %out: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %rows = memref.dim %in, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %cols = memref.dim %in, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %gx = arith.ceildivui %cols, %c8 : index
    %gy = arith.ceildivui %rows, %c8 : index
    gpu.launch blocks(%bx, %by, %bz) in (%nx = %gx, %ny = %gy, %nz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
      %x0 = arith.muli %bx, %c8 : index
      %j = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %c8 : index
      %i = arith.addi %y0, %ty : index
      %r = memref.dim %in, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c = memref.dim %in, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %in_r = arith.cmpi ult, %i, %r : index
      %in_c = arith.cmpi ult, %j, %c : index
      %inside = arith.andi %in_r, %in_c : i1
      scf.if %inside {
        %v = memref.load %in[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
        memref.store %v, %out[%j, %i] : memref<?x?xf32>
      }
      gpu.terminator
    }
    return
  }
}
