// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// gpu.shuffle xor, up, down and idx with MLIR's semantics, over one
// workgroup of 8 invocations (lanes 0-7 of one subgroup on every device:
// lavapipe's subgroups have 8 lanes, NVIDIA's 32). The first `width` lanes
// take part: lane k reads lane j (xor k ^ offset, up k - offset, down
// k + offset, idx offset), and valid = k < width and j < width; the test
// stores -1 where valid is 0 (the value there is unspecified). Rows: xor 1,
// up 1, down 2, idx 3 at width 8, then xor 1, up 1, down 1, idx 5 at
// width 4 (lanes 4-7 do not take part; idx 5 is past the width).

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}1, 0, 3, 2, 5, 4, 7, 6],
// CHECK-NEXT: [-1, 0, 1, 2, 3, 4, 5, 6],
// CHECK-NEXT: [2, 3, 4, 5, 6, 7, -1, -1],
// CHECK-NEXT: [3, 3, 3, 3, 3, 3, 3, 3],
// CHECK-NEXT: [1, 0, 3, 2, -1, -1, -1, -1],
// CHECK-NEXT: [-1, 0, 1, 2, -1, -1, -1, -1],
// CHECK-NEXT: [1, 2, 3, -1, -1, -1, -1, -1],
// CHECK-NEXT: [-1, -1, -1, -1, -1, -1, -1, -1]]
// The valid flags.
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}1, 1, 1, 1, 1, 1, 1, 1],
// CHECK-NEXT: [0, 1, 1, 1, 1, 1, 1, 1],
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 0, 0],
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1],
// CHECK-NEXT: [1, 1, 1, 1, 0, 0, 0, 0],
// CHECK-NEXT: [0, 1, 1, 1, 0, 0, 0, 0],
// CHECK-NEXT: [1, 1, 1, 0, 0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]]
// f32 values (t + 0.5) through xor 4 and down 1 at width 8.
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}4.5, 5.5, 6.5, 7.5, 0.5, 1.5, 2.5, 3.5],
// CHECK-NEXT: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, -1]]
// i64 values (t * 2^33 + t) through down 1: both halves move.
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [8589934593, 17179869186, 25769803779, 34359738372, 42949672965, 51539607558, 60129542151, -1]
// vector<2xi32> values (t, 100 + t) through xor 2: every element moves.
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [8, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}2, 102],
// CHECK-NEXT: [3, 103],
// CHECK-NEXT: [0, 100],
// CHECK-NEXT: [1, 101],
// CHECK-NEXT: [6, 106],
// CHECK-NEXT: [7, 107],
// CHECK-NEXT: [4, 104],
// CHECK-NEXT: [5, 105]]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %o = memref.alloc() : memref<8x8xi32>
  %ok = memref.alloc() : memref<8x8xi32>
  %f = memref.alloc() : memref<2x8xf32>
  %l = memref.alloc() : memref<8xi64>
  %vec = memref.alloc() : memref<8x2xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %w8 = arith.constant 8 : i32
    %w4 = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    %four = arith.constant 4 : i32
    %five = arith.constant 5 : i32
    %none = arith.constant -1 : i32
    %r0 = arith.constant 0 : index
    %r1 = arith.constant 1 : index
    %r2 = arith.constant 2 : index
    %r3 = arith.constant 3 : index
    %r4 = arith.constant 4 : index
    %r5 = arith.constant 5 : index
    %r6 = arith.constant 6 : index
    %r7 = arith.constant 7 : index
    %x, %vx = gpu.shuffle xor %t, %one, %w8 : i32
    %u, %vu = gpu.shuffle up %t, %one, %w8 : i32
    %d, %vd = gpu.shuffle down %t, %two, %w8 : i32
    %i, %vi = gpu.shuffle idx %t, %three, %w8 : i32
    %x4, %vx4 = gpu.shuffle xor %t, %one, %w4 : i32
    %u4, %vu4 = gpu.shuffle up %t, %one, %w4 : i32
    %d4, %vd4 = gpu.shuffle down %t, %one, %w4 : i32
    %i4, %vi4 = gpu.shuffle idx %t, %five, %w4 : i32
    %x1 = arith.select %vx, %x, %none : i32
    %u1 = arith.select %vu, %u, %none : i32
    %d1 = arith.select %vd, %d, %none : i32
    %i1 = arith.select %vi, %i, %none : i32
    %x41 = arith.select %vx4, %x4, %none : i32
    %u41 = arith.select %vu4, %u4, %none : i32
    %d41 = arith.select %vd4, %d4, %none : i32
    %i41 = arith.select %vi4, %i4, %none : i32
    memref.store %x1, %o[%r0, %tx] : memref<8x8xi32>
    memref.store %u1, %o[%r1, %tx] : memref<8x8xi32>
    memref.store %d1, %o[%r2, %tx] : memref<8x8xi32>
    memref.store %i1, %o[%r3, %tx] : memref<8x8xi32>
    memref.store %x41, %o[%r4, %tx] : memref<8x8xi32>
    memref.store %u41, %o[%r5, %tx] : memref<8x8xi32>
    memref.store %d41, %o[%r6, %tx] : memref<8x8xi32>
    memref.store %i41, %o[%r7, %tx] : memref<8x8xi32>
    %bx0 = arith.extui %vx : i1 to i32
    %bu = arith.extui %vu : i1 to i32
    %bd = arith.extui %vd : i1 to i32
    %bi = arith.extui %vi : i1 to i32
    %bx4 = arith.extui %vx4 : i1 to i32
    %bu4 = arith.extui %vu4 : i1 to i32
    %bd4 = arith.extui %vd4 : i1 to i32
    %bi4 = arith.extui %vi4 : i1 to i32
    memref.store %bx0, %ok[%r0, %tx] : memref<8x8xi32>
    memref.store %bu, %ok[%r1, %tx] : memref<8x8xi32>
    memref.store %bd, %ok[%r2, %tx] : memref<8x8xi32>
    memref.store %bi, %ok[%r3, %tx] : memref<8x8xi32>
    memref.store %bx4, %ok[%r4, %tx] : memref<8x8xi32>
    memref.store %bu4, %ok[%r5, %tx] : memref<8x8xi32>
    memref.store %bd4, %ok[%r6, %tx] : memref<8x8xi32>
    memref.store %bi4, %ok[%r7, %tx] : memref<8x8xi32>
    %tf = arith.sitofp %t : i32 to f32
    %half = arith.constant 0.5 : f32
    %v = arith.addf %tf, %half : f32
    %fx, %fvx = gpu.shuffle xor %v, %four, %w8 : f32
    %fd, %fvd = gpu.shuffle down %v, %one, %w8 : f32
    %fnone = arith.constant -1.0 : f32
    %fx1 = arith.select %fvx, %fx, %fnone : f32
    %fd1 = arith.select %fvd, %fd, %fnone : f32
    memref.store %fx1, %f[%r0, %tx] : memref<2x8xf32>
    memref.store %fd1, %f[%r1, %tx] : memref<2x8xf32>
    %t64 = arith.extui %t : i32 to i64
    %c33 = arith.constant 33 : i64
    %hi = arith.shli %t64, %c33 : i64
    %wide = arith.addi %hi, %t64 : i64
    %ld, %lvd = gpu.shuffle down %wide, %one, %w8 : i64
    %lnone = arith.constant -1 : i64
    %ld1 = arith.select %lvd, %ld, %lnone : i64
    memref.store %ld1, %l[%tx] : memref<8xi64>
    %c100 = arith.constant 100 : i32
    %t100 = arith.addi %t, %c100 : i32
    %pair = vector.from_elements %t, %t100 : vector<2xi32>
    %vx2, %vvx2 = gpu.shuffle xor %pair, %two, %w8 : vector<2xi32>
    %e0 = vector.extract %vx2[0] : i32 from vector<2xi32>
    %e1 = vector.extract %vx2[1] : i32 from vector<2xi32>
    memref.store %e0, %vec[%tx, %r0] : memref<8x2xi32>
    memref.store %e1, %vec[%tx, %r1] : memref<8x2xi32>
    gpu.terminator
  }
  %p = memref.cast %o : memref<8x8xi32> to memref<*xi32>
  call @printMemrefI32(%p) : (memref<*xi32>) -> ()
  %q = memref.cast %ok : memref<8x8xi32> to memref<*xi32>
  call @printMemrefI32(%q) : (memref<*xi32>) -> ()
  %g = memref.cast %f : memref<2x8xf32> to memref<*xf32>
  call @printMemrefF32(%g) : (memref<*xf32>) -> ()
  %h = memref.cast %l : memref<8xi64> to memref<*xi64>
  call @printMemrefI64(%h) : (memref<*xi64>) -> ()
  %k = memref.cast %vec : memref<8x2xi32> to memref<*xi32>
  call @printMemrefI32(%k) : (memref<*xi32>) -> ()
  return
}
