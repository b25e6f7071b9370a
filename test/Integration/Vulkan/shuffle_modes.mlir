// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// gpu.shuffle xor, up, down and idx with width 8 on i32 and f32 over 32
// invocations: lanes form segments of 8, and valid = 0 where the source is
// outside the invocation's segment (the value there is unspecified; the
// test stores -1). The values hold for every subgroup size of at least 8
// (lavapipe's 8, NVIDIA's 32).

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30],
// CHECK-NEXT: [-1, 0, 1, 2, 3, 4, 5, 6, -1, 8, 9, 10, 11, 12, 13, 14, -1, 16, 17, 18, 19, 20, 21, 22, -1, 24, 25, 26, 27, 28, 29, 30],
// CHECK-NEXT: [2, 3, 4, 5, 6, 7, -1, -1, 10, 11, 12, 13, 14, 15, -1, -1, 18, 19, 20, 21, 22, 23, -1, -1, 26, 27, 28, 29, 30, 31, -1, -1],
// CHECK-NEXT: [3, 3, 3, 3, 3, 3, 3, 3, 11, 11, 11, 11, 11, 11, 11, 11, 19, 19, 19, 19, 19, 19, 19, 19, 27, 27, 27, 27, 27, 27, 27, 27]]
// The valid flags: xor always, up not at segment position 0, down not at
// positions 6 and 7, idx always.
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
// CHECK-NEXT: [0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1],
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0],
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]
// f32 values (t + 0.5) through xor 4 and down 1.
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}4.5, 5.5, 6.5, 7.5, 0.5, 1.5, 2.5, 3.5, 12.5, 13.5, 14.5, 15.5, 8.5, 9.5, 10.5, 11.5, 20.5, 21.5, 22.5, 23.5, 16.5, 17.5, 18.5, 19.5, 28.5, 29.5, 30.5, 31.5, 24.5, 25.5, 26.5, 27.5],
// CHECK-NEXT: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, -1, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, -1, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, -1, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, -1]]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %o = memref.alloc() : memref<4x32xi32>
  %ok = memref.alloc() : memref<4x32xi32>
  %f = memref.alloc() : memref<2x32xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %w = arith.constant 8 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    %four = arith.constant 4 : i32
    %x, %vx = gpu.shuffle xor %t, %one, %w : i32
    %u, %vu = gpu.shuffle up %t, %one, %w : i32
    %d, %vd = gpu.shuffle down %t, %two, %w : i32
    %i, %vi = gpu.shuffle idx %t, %three, %w : i32
    %r0 = arith.constant 0 : index
    %r1 = arith.constant 1 : index
    %r2 = arith.constant 2 : index
    %r3 = arith.constant 3 : index
    %none = arith.constant -1 : i32
    %x1 = arith.select %vx, %x, %none : i32
    %u1 = arith.select %vu, %u, %none : i32
    %d1 = arith.select %vd, %d, %none : i32
    %i1 = arith.select %vi, %i, %none : i32
    memref.store %x1, %o[%r0, %tx] : memref<4x32xi32>
    memref.store %u1, %o[%r1, %tx] : memref<4x32xi32>
    memref.store %d1, %o[%r2, %tx] : memref<4x32xi32>
    memref.store %i1, %o[%r3, %tx] : memref<4x32xi32>
    %bx0 = arith.extui %vx : i1 to i32
    %bu = arith.extui %vu : i1 to i32
    %bd = arith.extui %vd : i1 to i32
    %bi = arith.extui %vi : i1 to i32
    memref.store %bx0, %ok[%r0, %tx] : memref<4x32xi32>
    memref.store %bu, %ok[%r1, %tx] : memref<4x32xi32>
    memref.store %bd, %ok[%r2, %tx] : memref<4x32xi32>
    memref.store %bi, %ok[%r3, %tx] : memref<4x32xi32>
    %tf = arith.sitofp %t : i32 to f32
    %half = arith.constant 0.5 : f32
    %v = arith.addf %tf, %half : f32
    %fx, %fvx = gpu.shuffle xor %v, %four, %w : f32
    %fd, %fvd = gpu.shuffle down %v, %one, %w : f32
    %fnone = arith.constant -1.0 : f32
    %fx1 = arith.select %fvx, %fx, %fnone : f32
    %fd1 = arith.select %fvd, %fd, %fnone : f32
    memref.store %fx1, %f[%r0, %tx] : memref<2x32xf32>
    memref.store %fd1, %f[%r1, %tx] : memref<2x32xf32>
    gpu.terminator
  }
  %p = memref.cast %o : memref<4x32xi32> to memref<*xi32>
  call @printMemrefI32(%p) : (memref<*xi32>) -> ()
  %q = memref.cast %ok : memref<4x32xi32> to memref<*xi32>
  call @printMemrefI32(%q) : (memref<*xi32>) -> ()
  %g = memref.cast %f : memref<2x32xf32> to memref<*xf32>
  call @printMemrefF32(%g) : (memref<*xf32>) -> ()
  return
}
