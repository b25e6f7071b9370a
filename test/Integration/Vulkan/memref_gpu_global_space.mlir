// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Host memrefs in #gpu.address_space<global>: the host sees plain pointers
// (kiln-host-gpu-global-memory-space), the kernel storage buffers.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [0,  3,  6,  9,  12,  15,  18,  21]

module attributes {gpu.container_module} {
  func.func @triple(%buf: memref<8xf32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %f = arith.sitofp %i : i32 to f32
      %three = arith.constant 3.0 : f32
      %v = arith.mulf %f, %three : f32
      memref.store %v, %buf[%tx] : memref<8xf32, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }

  func.func @main() {
    %m = memref.alloc() : memref<8xf32, #gpu.address_space<global>>
    call @triple(%m) : (memref<8xf32, #gpu.address_space<global>>) -> ()
    %plain = memref.memory_space_cast %m : memref<8xf32, #gpu.address_space<global>> to memref<8xf32>
    %u = memref.cast %plain : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %m : memref<8xf32, #gpu.address_space<global>>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
