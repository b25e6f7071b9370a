// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// vector.load / vector.store of 2, 3 and 4 elements (i32 and f32) at
// unaligned element offsets of static buffers, with vector arithmetic and a
// reduction.

// in[i] = i. Each of 8 invocations t: vector<2xi32> at 2t -> out2 = v * 10;
// vector<3xf32> at 3t -> out3 = v + 0.5; vector<4xi32> at 4t + 1 (unaligned)
// -> out4 = v - 1, and sum of that vector into sums[t].
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [24] strides = [1] data =
// CHECK-NEXT: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [33] strides = [1] data =
// CHECK-NEXT: [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [6, 22, 38, 54, 70, 86, 102, 118]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c33 = arith.constant 33 : index
  %in = memref.alloc() : memref<33xi32>
  %inf = memref.alloc() : memref<24xf32>
  scf.for %i = %c0 to %c33 step %c1 {
    %ii = arith.index_cast %i : index to i32
    memref.store %ii, %in[%i] : memref<33xi32>
  }
  %c24 = arith.constant 24 : index
  scf.for %i = %c0 to %c24 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %inf[%i] : memref<24xf32>
  }
  %out2 = memref.alloc() : memref<16xi32>
  %out3 = memref.alloc() : memref<24xf32>
  %out4 = memref.alloc() : memref<33xi32>
  %sums = memref.alloc() : memref<8xi32>
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%out4 : memref<33xi32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %one = arith.constant 1 : index
    %i2 = arith.muli %tx, %k2 : index
    %i3 = arith.muli %tx, %k3 : index
    %i40 = arith.muli %tx, %k4 : index
    %i4 = arith.addi %i40, %one : index
    %v2 = vector.load %in[%i2] : memref<33xi32>, vector<2xi32>
    %ten = arith.constant dense<10> : vector<2xi32>
    %w2 = arith.muli %v2, %ten : vector<2xi32>
    vector.store %w2, %out2[%i2] : memref<16xi32>, vector<2xi32>
    %v3 = vector.load %inf[%i3] : memref<24xf32>, vector<3xf32>
    %half = arith.constant dense<0.5> : vector<3xf32>
    %w3 = arith.addf %v3, %half : vector<3xf32>
    vector.store %w3, %out3[%i3] : memref<24xf32>, vector<3xf32>
    %v4 = vector.load %in[%i4] : memref<33xi32>, vector<4xi32>
    %ones = arith.constant dense<1> : vector<4xi32>
    %w4 = arith.subi %v4, %ones : vector<4xi32>
    vector.store %w4, %out4[%i4] : memref<33xi32>, vector<4xi32>
    %s = vector.reduction <add>, %w4 : vector<4xi32> into i32
    memref.store %s, %sums[%tx] : memref<8xi32>
    gpu.terminator
  }
  %p2 = memref.cast %out2 : memref<16xi32> to memref<*xi32>
  call @printMemrefI32(%p2) : (memref<*xi32>) -> ()
  %p3 = memref.cast %out3 : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%p3) : (memref<*xf32>) -> ()
  %p4 = memref.cast %out4 : memref<33xi32> to memref<*xi32>
  call @printMemrefI32(%p4) : (memref<*xi32>) -> ()
  %ps = memref.cast %sums : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%ps) : (memref<*xi32>) -> ()
  return
}
