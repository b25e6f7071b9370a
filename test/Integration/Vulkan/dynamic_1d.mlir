// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref<?xf32> buffers from memref.alloc(%n) with a run-time size, memref.dim in the kernel and a run-time grid size.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [37] strides = [1] data =
// CHECK-NEXT: [3, 2.5, 2, 1.5, 1, 0.5, 0, -0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4, -4.5, -5, -5.5, -6, -6.5, -7, -7.5, -8, -8.5, -9, -9.5, -10, -10.5, -11, -11.5, -12, -12.5, -13, -13.5, -14, -14.5, -15]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c37 = arith.constant 37 : index
  %quarter = arith.constant 0.25 : f32
  %three = arith.constant 3.0 : f32
  // The size goes through memory so that no pass can fold it into a constant.
  %cell = memref.alloc() : memref<1xindex>
  memref.store %c37, %cell[%c0] : memref<1xindex>
  %n = memref.load %cell[%c0] : memref<1xindex>
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  // x[i] = i / 4, y[i] = 3 - i.
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %xv = arith.mulf %f, %quarter : f32
    %yv = arith.subf %three, %f : f32
    memref.store %xv, %x[%i] : memref<?xf32>
    memref.store %yv, %y[%i] : memref<?xf32>
  }
  // ceil(37 / 16) = 3 blocks, a grid size known only at run time.
  %blocks = arith.ceildivui %n, %c16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %two = arith.constant 2.0 : f32
    %k0 = arith.constant 0 : index
    %size = memref.dim %x, %k0 : memref<?xf32>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %size : index
    scf.if %ok {
      %a = memref.load %x[%i] : memref<?xf32>
      %b = memref.load %y[%i] : memref<?xf32>
      %a2 = arith.mulf %a, %two : f32
      %s = arith.addf %a2, %b : f32
      memref.store %s, %out[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  %u = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %y : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  memref.dealloc %cell : memref<1xindex>
  return
}
