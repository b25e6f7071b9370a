// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// math.tanh, math.fma, math.floor and math.absf in a kernel.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-0.95404{{[0-9]*}}, -0.92534{{[0-9]*}}, -0.87982{{[0-9]*}}, {{(-0\.809299|-0\.8093|-0\.809301|-0\.809302|-0\.809303|-0\.809304)}}, -0.70390{{[0-9]*}}, {{(-0\.554598|-0\.554599|-0\.5546|-0\.554601)}}, -0.35835{{[0-9]*}}, -0.124353, 0.124353, 0.35835{{[0-9]*}}, {{(0\.554598|0\.554599|0\.5546|0\.554601)}}, 0.70390{{[0-9]*}}, {{(0\.809299|0\.8093|0\.809301|0\.809302|0\.809303|0\.809304)}}, 0.87982{{[0-9]*}}, 0.92534{{[0-9]*}}, 0.95404{{[0-9]*}}],
// CHECK-NEXT: [2.51562, 1.64062, 0.890625, 0.265625, -0.234375, -0.609375, -0.859375, -0.984375, -0.984375, -0.859375, -0.609375, -0.234375, 0.265625, 0.890625, 1.64062, 2.51562],
// CHECK-NEXT: [-6, -5, -5, -4, -3, -2, -2, -1, 0, 1, 1, 2, 3, 4, 4, 5],
// CHECK-NEXT: [1.875, 1.625, 1.375, 1.125, 0.875, 0.625, 0.375, 0.125, 0.125, 0.375, 0.625, 0.875, 1.125, 1.375, 1.625, 1.875]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %off = arith.constant 7.5 : f32
  %quarter = arith.constant 0.25 : f32
  %x = memref.alloc() : memref<16xf32>
  %out = memref.alloc() : memref<4x16xf32>
  // x[i] = (i - 7.5) / 4: -1.875 .. 1.875, never 0.
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %d = arith.subf %f, %off : f32
    %v = arith.mulf %d, %quarter : f32
    memref.store %v, %x[%i] : memref<16xf32>
  }
  // Rows: tanh(x), fma(x, x, -1), floor(3 x), |x|.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %m1 = arith.constant -1.0 : f32
    %k3 = arith.constant 3.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<16xf32>
    %t = math.tanh %v : f32
    %f = math.fma %v, %v, %m1 : f32
    %v3 = arith.mulf %v, %k3 : f32
    %fl = math.floor %v3 : f32
    %a = math.absf %v : f32
    memref.store %t, %out[%c0, %i] : memref<4x16xf32>
    memref.store %f, %out[%c1, %i] : memref<4x16xf32>
    memref.store %fl, %out[%c2, %i] : memref<4x16xf32>
    memref.store %a, %out[%c3, %i] : memref<4x16xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<4x16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %out : memref<4x16xf32>
  return
}
