// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// cf.switch inside a kernel: four cases (one with block arguments shared by two values, one default).

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [0, 1001, 12, -3, 16, 1005, 16, -7, 64, 1009, 20, -11, 144, 1013, 24, -15, 256, 1017, 28, -19, 400, 1021, 32, -23, 576, 1025, 36, -27, 784, 1029, 40, -31]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<32xi32>
  // Thread i picks an operation with cf.switch on i mod 4:
  // 0 -> i * i, 1 -> i + 1000, 2 -> i + 10, 3 (default) -> -i.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : i32
    %k4 = arith.constant 4 : i32
    %k10 = arith.constant 10 : i32
    %k1000 = arith.constant 1000 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ii = arith.index_cast %i : index to i32
    %sel = arith.remui %ii, %k4 : i32
    cf.switch %sel : i32, [
      default: ^other,
      0: ^square,
      1: ^plus(%k1000 : i32),
      2: ^plus(%k10 : i32)
    ]
  ^square:
    %sq = arith.muli %ii, %ii : i32
    cf.br ^merge(%sq : i32)
  ^plus(%k: i32):
    %p = arith.addi %ii, %k : i32
    cf.br ^merge(%p : i32)
  ^other:
    %ng = arith.subi %k0, %ii : i32
    cf.br ^merge(%ng : i32)
  ^merge(%r: i32):
    memref.store %r, %out[%i] : memref<32xi32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<32xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %out : memref<32xi32>
  return
}
