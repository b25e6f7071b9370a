// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// An f16 buffer kernel is refused on vulkan-1.1, which has no 16-bit storage (no silent widening to f32 arrays).

// CHECK: error: kernel 'half_scale_kernel' argument 0 of type 'memref<1024xf16>' cannot be accessed for this target env: it needs capability StorageBuffer16BitAccess and extension SPV_KHR_16bit_storage

func.func @half_scale(%buf: memref<1024xf16>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %two = arith.constant 2.0 : f16
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %buf[%i] : memref<1024xf16>
    %s = arith.mulf %v, %two : f16
    memref.store %s, %buf[%i] : memref<1024xf16>
    gpu.terminator
  }
  return
}
