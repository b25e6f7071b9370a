// A storage buffer that a kernel reads as an array of vectors (its vector
// loads say {alignment = 16}) must start at a multiple of the vector's
// bytes: one 4 bytes into an allocation is refused, naming the kernel, the
// argument and the alignment, instead of reading the wrong elements. On
// Vulkan the same launch is refused by the device's storage-buffer offset
// alignment (test/Integration/Runner/misaligned-identity-memref.mlir).
// RUN: not kiln-spirv-cpu-runner %s 2>&1 | FileCheck %s
// RUN: kiln-compile %s --target=spirv-cpu --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s
// CHECK: kiln-spirv-cpu: kernel 'main_kernel' argument 0 reads its buffer as vectors of 16 bytes, so its first element must be a multiple of 16 bytes, but it is 4 bytes past one

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %bytes = memref.alloc() {alignment = 64} : memref<64xi8>
  %view = memref.view %bytes[%c4][%c8] : memref<64xi8> to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %v = vector.load %view[%k0] {alignment = 16} : memref<?xf32>, vector<4xf32>
    %w = arith.addf %v, %v : vector<4xf32>
    vector.store %w, %view[%k0] {alignment = 16} : memref<?xf32>, vector<4xf32>
    gpu.terminator
  }
  memref.dealloc %bytes : memref<64xi8>
  return
}
