// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Workgroup memory from a gpu.launch workgroup() attribution: each block reverses 64 values across a gpu.barrier.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
// CHECK-NEXT: [127, 126, 125, 124, 123, 122, 121, 120, 119, 118, 117, 116, 115, 114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64],
// CHECK-NEXT: [191, 190, 189, 188, 187, 186, 185, 184, 183, 182, 181, 180, 179, 178, 177, 176, 175, 174, 173, 172, 171, 170, 169, 168, 167, 166, 165, 164, 163, 162, 161, 160, 159, 158, 157, 156, 155, 154, 153, 152, 151, 150, 149, 148, 147, 146, 145, 144, 143, 142, 141, 140, 139, 138, 137, 136, 135, 134, 133, 132, 131, 130, 129, 128],
// CHECK-NEXT: [255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241, 240, 239, 238, 237, 236, 235, 234, 233, 232, 231, 230, 229, 228, 227, 226, 225, 224, 223, 222, 221, 220, 219, 218, 217, 216, 215, 214, 213, 212, 211, 210, 209, 208, 207, 206, 205, 204, 203, 202, 201, 200, 199, 198, 197, 196, 195, 194, 193, 192]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %in = memref.alloc() : memref<4x64xf32>
  %out = memref.alloc() : memref<4x64xf32>
  // in[b][t] = 64 b + t.
  scf.for %b = %c0 to %c4 step %c1 {
    scf.for %t = %c0 to %c64 step %c1 {
      %base = arith.muli %b, %c64 : index
      %i = arith.addi %base, %t : index
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %in[%b, %t] : memref<4x64xf32>
    }
  }
  // Each block reverses its 64-element row through workgroup memory.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) {
    %c63 = arith.constant 63 : index
    %v = memref.load %in[%bx, %tx] : memref<4x64xf32>
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %mirror = arith.subi %c63, %tx : index
    %r = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%bx, %tx] : memref<4x64xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<4x64xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<4x64xf32>
  memref.dealloc %out : memref<4x64xf32>
  return
}
