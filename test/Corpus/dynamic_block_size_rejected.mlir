// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// A gpu.launch with a runtime block size is rejected: Vulkan fixes the workgroup size at pipeline creation.

// CHECK: error: block size of kernel 'scale_kernel' is not a compile-time constant

func.func @scale(%buf: memref<?xf32>, %threads: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  %blocks = arith.ceildivui %n, %threads : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %threads, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %two = arith.constant 2.0 : f32
    %len = memref.dim %buf, %k0 : memref<?xf32>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %len : index
    scf.if %ok {
      %v = memref.load %buf[%i] : memref<?xf32>
      %s = arith.mulf %v, %two : f32
      memref.store %s, %buf[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
