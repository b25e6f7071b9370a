// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// gpu.subgroup_reduce add on f32 and i32 over lavapipe's 8-wide subgroups, with gpu.subgroup_size and gpu.lane_id.
// kiln-bundle subgroup_size=8 (the expected values hold for 8-wide subgroups)

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807, 800, 801, 802, 803, 804, 805, 806, 807]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [14, 14, 14, 14, 14, 14, 14, 14, 46, 46, 46, 46, 46, 46, 46, 46, 78, 78, 78, 78, 78, 78, 78, 78, 110, 110, 110, 110, 110, 110, 110, 110, 142, 142, 142, 142, 142, 142, 142, 142, 174, 174, 174, 174, 174, 174, 174, 174, 206, 206, 206, 206, 206, 206, 206, 206, 238, 238, 238, 238, 238, 238, 238, 238]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [140, 140, 140, 140, 140, 140, 140, 140, 1100, 1100, 1100, 1100, 1100, 1100, 1100, 1100, 3084, 3084, 3084, 3084, 3084, 3084, 3084, 3084, 6092, 6092, 6092, 6092, 6092, 6092, 6092, 6092, 10124, 10124, 10124, 10124, 10124, 10124, 10124, 10124, 15180, 15180, 15180, 15180, 15180, 15180, 15180, 15180, 21260, 21260, 21260, 21260, 21260, 21260, 21260, 21260, 28364, 28364, 28364, 28364, 28364, 28364, 28364, 28364]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %half = arith.constant 0.5 : f32
  %x = memref.alloc() : memref<64xf32>
  %y = memref.alloc() : memref<64xi32>
  %sx = memref.alloc() : memref<64xf32>
  %sy = memref.alloc() : memref<64xi32>
  %info = memref.alloc() : memref<64xi32>
  // x[i] = i / 2, y[i] = i * i.
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %h = arith.mulf %f, %half : f32
    %sq = arith.muli %ii, %ii : i32
    memref.store %h, %x[%i] : memref<64xf32>
    memref.store %sq, %y[%i] : memref<64xi32>
  }
  // lavapipe's subgroups are 8 consecutive invocations: every thread gets
  // the sum over its group of 8; info[i] = 100 * subgroup size + lane id.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%bsx = %c32, %bsy = %c1, %bsz = %c1) {
    %k100 = arith.constant 100 : i32
    %base = arith.muli %bx, %bsx : index
    %i = arith.addi %base, %tx : index
    %a = memref.load %x[%i] : memref<64xf32>
    %b = memref.load %y[%i] : memref<64xi32>
    %ra = gpu.subgroup_reduce add %a : (f32) -> f32
    %rb = gpu.subgroup_reduce add %b : (i32) -> i32
    memref.store %ra, %sx[%i] : memref<64xf32>
    memref.store %rb, %sy[%i] : memref<64xi32>
    %size = gpu.subgroup_size : index
    %lane = gpu.lane_id
    %size32 = arith.index_cast %size : index to i32
    %lane32 = arith.index_cast %lane : index to i32
    %s100 = arith.muli %size32, %k100 : i32
    %inf = arith.addi %s100, %lane32 : i32
    memref.store %inf, %info[%i] : memref<64xi32>
    gpu.terminator
  }
  %u0 = memref.cast %info : memref<64xi32> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  %u1 = memref.cast %sx : memref<64xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %sy : memref<64xi32> to memref<*xi32>
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  memref.dealloc %x : memref<64xf32>
  memref.dealloc %y : memref<64xi32>
  memref.dealloc %sx : memref<64xf32>
  memref.dealloc %sy : memref<64xi32>
  memref.dealloc %info : memref<64xi32>
  return
}
