// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Element-wise f32 addition c = a + b over 50 elements with 4 x 16 threads (bounds check).

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [50] strides = [1] data =
// CHECK-NEXT: [100, 99.5, 99, 98.5, 98, 97.5, 97, 96.5, 96, 95.5, 95, 94.5, 94, 93.5, 93, 92.5, 92, 91.5, 91, 90.5, 90, 89.5, 89, 88.5, 88, 87.5, 87, 86.5, 86, 85.5, 85, 84.5, 84, 83.5, 83, 82.5, 82, 81.5, 81, 80.5, 80, 79.5, 79, 78.5, 78, 77.5, 77, 76.5, 76, 75.5]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 50 : index
  %half = arith.constant 0.5 : f32
  %hundred = arith.constant 100.0 : f32
  %a = memref.alloc() : memref<50xf32>
  %b = memref.alloc() : memref<50xf32>
  %c = memref.alloc() : memref<50xf32>
  // a[i] = i * 0.5, b[i] = 100 - i.
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %x = arith.mulf %f, %half : f32
    %y = arith.subf %hundred, %f : f32
    memref.store %x, %a[%i] : memref<50xf32>
    memref.store %y, %b[%i] : memref<50xf32>
  }
  // 4 blocks of 16 threads: 64 threads for 50 elements, the last 14 idle.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %x = memref.load %a[%i] : memref<50xf32>
      %y = memref.load %b[%i] : memref<50xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i] : memref<50xf32>
    }
    gpu.terminator
  }
  %u = memref.cast %c : memref<50xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<50xf32>
  memref.dealloc %b : memref<50xf32>
  memref.dealloc %c : memref<50xf32>
  return
}
