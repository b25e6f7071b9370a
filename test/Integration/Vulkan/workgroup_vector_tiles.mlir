// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Workgroup memory read and written with aligned vector accesses is an array
// of vectors: scalar stores with a run-time component, four-wide loads and
// stores, scalar loads at constant and run-time components, f32 and i32,
// 2-D and 1-D. The printed values are the same as with scalar memory.

// tile[r][c] = 1000 r + c, written one scalar at a time; invocation t reads
// row t % 4, vector t / 4.
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [16, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}0, 1, 2, 3],
// CHECK-NEXT: [1000, 1001, 1002, 1003],
// CHECK-NEXT: [2000, 2001, 2002, 2003],
// CHECK-NEXT: [3000, 3001, 3002, 3003],
// CHECK-NEXT: [4, 5, 6, 7],
// CHECK-NEXT: [1004, 1005, 1006, 1007],
// CHECK-NEXT: [2004, 2005, 2006, 2007],
// CHECK-NEXT: [3004, 3005, 3006, 3007],
// CHECK-NEXT: [8, 9, 10, 11],
// CHECK-NEXT: [1008, 1009, 1010, 1011],
// CHECK-NEXT: [2008, 2009, 2010, 2011],
// CHECK-NEXT: [3008, 3009, 3010, 3011],
// CHECK-NEXT: [12, 13, 14, 15],
// CHECK-NEXT: [1012, 1013, 1014, 1015],
// CHECK-NEXT: [2012, 2013, 2014, 2015],
// CHECK-NEXT: [3012, 3013, 3014, 3015]]
// words[4 q + k] = 10 q + k, written a vector at a time; out[t] =
// words[15 - t] + 1000 * words[5].
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [11033, 11032, 11031, 11030, 11023, 11022, 11021, 11020, 11013, 11012, 11011, 11010, 11003, 11002, 11001, 11000]

// NOTRACE-NOT: error

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<16x4xf32>
  %words = memref.alloc() : memref<16xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
    %c0k = arith.constant 0 : index
    %c4k = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c15 = arith.constant 15 : index
    %k10 = arith.constant 10 : i32
    %k1000 = arith.constant 1000 : i32
    %tile = memref.alloc() : memref<4x16xf32, #gpu.address_space<workgroup>>
    %wg = memref.alloc() : memref<16xi32, #gpu.address_space<workgroup>>
    %t4 = arith.muli %ty, %c4k : index
    %t = arith.addi %t4, %tx : index
    %tyi = arith.index_cast %ty : index to i32
    %row = arith.muli %tyi, %k1000 : i32
    scf.for %q = %c0k to %c4k step %c1 {
      %q4 = arith.muli %q, %c4k : index
      %col = arith.addi %tx, %q4 : index
      %coli = arith.index_cast %col : index to i32
      %v = arith.addi %row, %coli : i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %tile[%ty, %col] : memref<4x16xf32, #gpu.address_space<workgroup>>
    }
    %small = arith.cmpi ult, %t, %c4k : index
    scf.if %small {
      %ti = arith.index_cast %t : index to i32
      %base = arith.muli %ti, %k10 : i32
      %b = vector.broadcast %base : i32 to vector<4xi32>
      %steps = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
      %w = arith.addi %b, %steps : vector<4xi32>
      %at = arith.muli %t, %c4k : index
      vector.store %w, %wg[%at] : memref<16xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    }
    gpu.barrier
    %rowv = vector.load %tile[%tx, %t4] : memref<4x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %rowv, %out[%t, %c0k] : memref<16x4xf32>, vector<4xf32>
    %back = arith.subi %c15, %t : index
    %x = memref.load %wg[%back] : memref<16xi32, #gpu.address_space<workgroup>>
    %y = memref.load %wg[%c5] : memref<16xi32, #gpu.address_space<workgroup>>
    %y1000 = arith.muli %y, %k1000 : i32
    %s = arith.addi %x, %y1000 : i32
    memref.store %s, %words[%t] : memref<16xi32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<16x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %w = memref.cast %words : memref<16xi32> to memref<*xi32>
  call @printMemrefI32(%w) : (memref<*xi32>) -> ()
  memref.dealloc %out : memref<16x4xf32>
  memref.dealloc %words : memref<16xi32>
  return
}
