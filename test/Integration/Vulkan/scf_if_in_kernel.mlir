// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// scf.if inside a kernel: with results (leaky ReLU), nested with results, and without results guarding a store.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [48] strides = [1] data =
// CHECK-NEXT: [-2.5625, -2.4375, -2.3125, -2.1875, -2.0625, -1.9375, -1.8125, -1.6875, -1.5625, -1.4375, -1.3125, -1.1875, -1.0625, -0.9375, -0.8125, -0.6875, -0.5625, -0.4375, -0.3125, -0.1875, -0.0625, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [48] strides = [1] data =
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [48] strides = [1] data =
// CHECK-NEXT: [-41, -1, -1, -35, -1, -1, -29, -1, -1, -23, -1, -1, -17, -1, -1, -11, -1, -1, -5, -1, -1, 1, -1, -1, 7, -1, -1, 13, -1, -1, 19, -1, -1, 25, -1, -1, 31, -1, -1, 37, -1, -1, 43, -1, -1, 49, -1, -1]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %off = arith.constant 20.5 : f32
  %minus1 = arith.constant -1.0 : f32
  %x = memref.alloc() : memref<48xf32>
  %leaky = memref.alloc() : memref<48xf32>
  %cls = memref.alloc() : memref<48xi32>
  %third = memref.alloc() : memref<48xf32>
  // x[i] = i - 20.5; third[] starts at -1 and is written only where i % 3 == 0.
  scf.for %i = %c0 to %c48 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.subf %f, %off : f32
    memref.store %v, %x[%i] : memref<48xf32>
    memref.store %minus1, %third[%i] : memref<48xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %ten = arith.constant 10.0 : f32
    %slope = arith.constant 0.125 : f32
    %twof = arith.constant 2.0 : f32
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %k2 = arith.constant 2 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<48xf32>
    %pos = arith.cmpf ogt, %v, %zero : f32
    // Leaky ReLU: an scf.if with a result.
    %l = scf.if %pos -> (f32) {
      scf.yield %v : f32
    } else {
      %s = arith.mulf %v, %slope : f32
      scf.yield %s : f32
    }
    memref.store %l, %leaky[%i] : memref<48xf32>
    // Nested scf.if: 2 above 10, 1 in (0, 10], 0 otherwise.
    %c = scf.if %pos -> (i32) {
      %big = arith.cmpf ogt, %v, %ten : f32
      %inner = scf.if %big -> (i32) {
        scf.yield %k2 : i32
      } else {
        scf.yield %k1 : i32
      }
      scf.yield %inner : i32
    } else {
      scf.yield %k0 : i32
    }
    memref.store %c, %cls[%i] : memref<48xi32>
    // An scf.if without results guarding a store.
    %r = arith.remui %i, %c3 : index
    %every3 = arith.cmpi eq, %r, %c0 : index
    scf.if %every3 {
      %d = arith.mulf %v, %twof : f32
      memref.store %d, %third[%i] : memref<48xf32>
    }
    gpu.terminator
  }
  %u1 = memref.cast %leaky : memref<48xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %cls : memref<48xi32> to memref<*xi32>
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  %u3 = memref.cast %third : memref<48xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<48xf32>
  memref.dealloc %leaky : memref<48xf32>
  memref.dealloc %cls : memref<48xi32>
  memref.dealloc %third : memref<48xf32>
  return
}
