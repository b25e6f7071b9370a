// y = a * x + y over dynamically sized vectors, 64 threads a block.
//
//   build/bin/kiln-vulkan-runner examples/saxpy.mlir
//
// runs it on the default Vulkan device (lavapipe when there is no GPU) and
// prints y for x[i] = i, y[i] = 1000 - i, a = 2: y[i] = 1000 + i.
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

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 100 : index
    %x = memref.alloc(%n) : memref<?xf32>
    %y = memref.alloc(%n) : memref<?xf32>
    %thousand = arith.constant 1000.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<?xf32>
      %yi = arith.subf %thousand, %f : f32
      memref.store %yi, %y[%i] : memref<?xf32>
    }
    %a = arith.constant 2.0 : f32
    call @saxpy(%a, %x, %y) : (f32, memref<?xf32>, memref<?xf32>) -> ()
    %printable = memref.cast %y : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%printable) : (memref<*xf32>) -> ()
    memref.dealloc %x : memref<?xf32>
    memref.dealloc %y : memref<?xf32>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
