// The same computation run by kiln-*-runner (@main prints the results) and
// called from Python (test_crosscheck.py calls @matmul_sqrt and @mix with
// the inputs @main makes): the two must agree.
//
//   c = sqrt(|a b|) + a[:, 0:4] / 3, a 6x5, b 5x4, one thread per element
//   y = (x * 2654435761) xor (x >> 3) over 16 i32s
module attributes {gpu.container_module} {
  func.func @matmul_sqrt(%a: memref<6x5xf32>, %b: memref<5x4xf32>,
                         %c: memref<6x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c6, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> f32 {
        %x = memref.load %a[%bx, %k] : memref<6x5xf32>
        %y = memref.load %b[%k, %tx] : memref<5x4xf32>
        %r = math.fma %x, %y, %acc : f32
        scf.yield %r : f32
      }
      %abs = math.absf %sum : f32
      %root = math.sqrt %abs : f32
      %three = arith.constant 3.0 : f32
      %ai = memref.load %a[%bx, %tx] : memref<6x5xf32>
      %third = arith.divf %ai, %three : f32
      %v = arith.addf %root, %third : f32
      memref.store %v, %c[%bx, %tx] : memref<6x4xf32>
      gpu.terminator
    }
    return
  }

  func.func @mix(%x: memref<16xi32>, %y: memref<16xi32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<16xi32>
      %k = arith.constant -1640531535 : i32
      %m = arith.muli %v, %k : i32
      %three = arith.constant 3 : i32
      %s = arith.shrui %v, %three : i32
      %r = arith.xori %m, %s : i32
      memref.store %r, %y[%tx] : memref<16xi32>
      gpu.terminator
    }
    return
  }

  // a[i][j] = (5 i + j) / 4 - 3, b[i][j] = (i - j) / 2, x[i] = 1000003 i - 7.
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c16 = arith.constant 16 : index
    %quarter = arith.constant 0.25 : f32
    %half = arith.constant 0.5 : f32
    %three = arith.constant 3.0 : f32
    %a = memref.alloc() : memref<6x5xf32>
    %b = memref.alloc() : memref<5x4xf32>
    %c = memref.alloc() : memref<6x4xf32>
    scf.for %i = %c0 to %c6 step %c1 {
      scf.for %j = %c0 to %c5 step %c1 {
        %i5 = arith.muli %i, %c5 : index
        %n = arith.addi %i5, %j : index
        %ni = arith.index_cast %n : index to i32
        %nf = arith.sitofp %ni : i32 to f32
        %q = arith.mulf %nf, %quarter : f32
        %v = arith.subf %q, %three : f32
        memref.store %v, %a[%i, %j] : memref<6x5xf32>
      }
    }
    scf.for %i = %c0 to %c5 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %ji = arith.index_cast %j : index to i32
        %d = arith.subi %ii, %ji : i32
        %df = arith.sitofp %d : i32 to f32
        %v = arith.mulf %df, %half : f32
        memref.store %v, %b[%i, %j] : memref<5x4xf32>
      }
    }
    call @matmul_sqrt(%a, %b, %c)
        : (memref<6x5xf32>, memref<5x4xf32>, memref<6x4xf32>) -> ()
    %cp = memref.cast %c : memref<6x4xf32> to memref<*xf32>
    call @printMemrefF32(%cp) : (memref<*xf32>) -> ()

    %x = memref.alloc() : memref<16xi32>
    %y = memref.alloc() : memref<16xi32>
    %big = arith.constant 1000003 : i32
    %seven = arith.constant 7 : i32
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %m = arith.muli %ii, %big : i32
      %v = arith.subi %m, %seven : i32
      memref.store %v, %x[%i] : memref<16xi32>
    }
    call @mix(%x, %y) : (memref<16xi32>, memref<16xi32>) -> ()
    %yp = memref.cast %y : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%yp) : (memref<*xi32>) -> ()
    memref.dealloc %a : memref<6x5xf32>
    memref.dealloc %b : memref<5x4xf32>
    memref.dealloc %c : memref<6x4xf32>
    memref.dealloc %x : memref<16xi32>
    memref.dealloc %y : memref<16xi32>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
}
