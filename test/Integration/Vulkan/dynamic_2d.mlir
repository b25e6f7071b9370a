// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref<?x?xf32> buffers (5 x 7, run-time sizes) with a 2-D run-time grid and memref.dim bounds.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [5, 7] strides = [7, 1] data =
// CHECK-NEXT: {{\[\[}}0, 2.5, 5, 7.5, 10, 12.5, 15],
// CHECK-NEXT: [19, 21.5, 24, 26.5, 29, 31.5, 34],
// CHECK-NEXT: [38, 40.5, 43, 45.5, 48, 50.5, 53],
// CHECK-NEXT: [57, 59.5, 62, 64.5, 67, 69.5, 72],
// CHECK-NEXT: [76, 78.5, 81, 83.5, 86, 88.5, 91]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %k10 = arith.constant 10 : i32
  %half = arith.constant 0.5 : f32
  // The sizes go through memory so that no pass can fold them into constants.
  %cell = memref.alloc() : memref<2xindex>
  memref.store %c5, %cell[%c0] : memref<2xindex>
  memref.store %c7, %cell[%c1] : memref<2xindex>
  %rows = memref.load %cell[%c0] : memref<2xindex>
  %cols = memref.load %cell[%c1] : memref<2xindex>
  %a = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %b = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc(%rows, %cols) : memref<?x?xf32>
  // a[r][c] = 10 r + c, b[r][c] = c / 2 - r.
  scf.for %r = %c0 to %rows step %c1 {
    scf.for %c = %c0 to %cols step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %t = arith.muli %ri, %k10 : i32
      %av = arith.addi %t, %ci : i32
      %af = arith.sitofp %av : i32 to f32
      %rf = arith.sitofp %ri : i32 to f32
      %cf = arith.sitofp %ci : i32 to f32
      %h = arith.mulf %cf, %half : f32
      %bf = arith.subf %h, %rf : f32
      memref.store %af, %a[%r, %c] : memref<?x?xf32>
      memref.store %bf, %b[%r, %c] : memref<?x?xf32>
    }
  }
  // 8 x 4 threads per block, ceil(7/8) x ceil(5/4) = 1 x 2 blocks.
  %gxs = arith.ceildivui %cols, %c8 : index
  %gys = arith.ceildivui %rows, %c4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %gxs, %gy = %gys, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c1) {
    %two = arith.constant 2.0 : f32
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %nr = memref.dim %out, %k0 : memref<?x?xf32>
    %nc = memref.dim %out, %k1 : memref<?x?xf32>
    %c0x = arith.muli %bx, %sx : index
    %c = arith.addi %c0x, %tx : index
    %r0y = arith.muli %by, %sy : index
    %r = arith.addi %r0y, %ty : index
    %okc = arith.cmpi ult, %c, %nc : index
    %okr = arith.cmpi ult, %r, %nr : index
    %ok = arith.andi %okc, %okr : i1
    scf.if %ok {
      %av = memref.load %a[%r, %c] : memref<?x?xf32>
      %bv = memref.load %b[%r, %c] : memref<?x?xf32>
      %a2 = arith.mulf %av, %two : f32
      %s = arith.addf %a2, %bv : f32
      memref.store %s, %out[%r, %c] : memref<?x?xf32>
    }
    gpu.terminator
  }
  %u = memref.cast %out : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  memref.dealloc %cell : memref<2xindex>
  return
}
