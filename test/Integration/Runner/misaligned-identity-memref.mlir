// A memref with the identity layout is bound at its first element, so that
// element must sit at the device's storage-buffer offset alignment (16
// bytes on lavapipe and NVIDIA GPUs, 64 on Intel's; a device that aligns
// to 4 bytes runs this program); one 4 bytes into a buffer is refused,
// naming the kernel, the argument and the limit, JIT and ahead of time.
// RUN: not kiln-vulkan-runner %s 2>&1 | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s
// CHECK: kiln-vulkan: kernel 'main_kernel' argument at binding 0 starts at an address that is not a multiple of the device's minStorageBufferOffsetAlignment ({{[0-9]+}}); a memref of static shape or identity layout is bound at its first element: pass an aligned buffer, or give the memref a dynamic offset (strided<[...], offset: ?>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %bytes = memref.alloc() {alignment = 64} : memref<64xi8>
  %view = memref.view %bytes[%c4][%c4] : memref<64xi8> to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %view[%tx] : memref<?xf32>
    gpu.terminator
  }
  memref.dealloc %bytes : memref<64xi8>
  return
}
