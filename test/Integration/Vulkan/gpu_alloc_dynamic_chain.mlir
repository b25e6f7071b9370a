// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Dynamically sized gpu.alloc buffers, two kernels and a device-to-device gpu.memcpy without host round trips.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [24] strides = [1] data =
// CHECK-NEXT: [400, 289, 196, 121, 64, 25, 4, 1, 16, 49, 100, 169, 256, 361, 484, 625, 784, 961, 1156, 1369, 1600, 1849, 2116, 2401]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [24] strides = [1] data =
// CHECK-NEXT: [400, 288, 194, 118, 60, 20, -2, -6, 8, 40, 90, 158, 244, 348, 470, 610, 768, 944, 1138, 1350, 1580, 1828, 2094, 2378]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c24 = arith.constant 24 : index
  %k3 = arith.constant 3 : i32
  %k20 = arith.constant 20 : i32
  %cell = memref.alloc() : memref<1xindex>
  memref.store %c24, %cell[%c0] : memref<1xindex>
  %n = memref.load %cell[%c0] : memref<1xindex>
  %a = memref.alloc(%n) : memref<?xi32>
  %b = memref.alloc(%n) : memref<?xi32>
  %out = memref.alloc(%n) : memref<?xi32>
  // a[i] = 3 i - 20.
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %t = arith.muli %ii, %k3 : i32
    %v = arith.subi %t, %k20 : i32
    memref.store %v, %a[%i] : memref<?xi32>
  }
  // Dynamically sized device buffers; the data stays on the device between
  // the two kernels and a device-to-device copy:
  //   db = da * da; da = db (gpu.memcpy); da = da - i.
  %da = gpu.alloc (%n) : memref<?xi32>
  %db = gpu.alloc (%n) : memref<?xi32>
  gpu.memcpy %da, %a : memref<?xi32>, memref<?xi32>
  %blocks = arith.ceildivui %n, %c8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %da[%i] : memref<?xi32>
    %sq = arith.muli %v, %v : i32
    memref.store %sq, %db[%i] : memref<?xi32>
    gpu.terminator
  }
  gpu.memcpy %da, %db : memref<?xi32>, memref<?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %da[%i] : memref<?xi32>
    %ii = arith.index_cast %i : index to i32
    %r = arith.subi %v, %ii : i32
    memref.store %r, %da[%i] : memref<?xi32>
    gpu.terminator
  }
  gpu.memcpy %out, %da : memref<?xi32>, memref<?xi32>
  gpu.memcpy %b, %db : memref<?xi32>, memref<?xi32>
  gpu.dealloc %da : memref<?xi32>
  gpu.dealloc %db : memref<?xi32>
  %ub = memref.cast %b : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  %uo = memref.cast %out : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<?xi32>
  memref.dealloc %b : memref<?xi32>
  memref.dealloc %out : memref<?xi32>
  memref.dealloc %cell : memref<1xindex>
  return
}
