// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv 2>&1 | FileCheck %s
// A 64 KiB memref.alloc in memory space 3 (Workgroup) must hit vulkan-1.1's 16 KiB shared-memory limit too.

// CHECK: error: kernel 'big_tile3_kernel' uses 65536 bytes of workgroup memory, above the target env's limit of 16384 (max_compute_shared_memory_size)

func.func @big_tile3(%a: memref<16384xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c128, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %tile = memref.alloc() : memref<16384xf32, 3>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %a[%i] : memref<16384xf32>
    memref.store %v, %tile[%i] : memref<16384xf32, 3>
    gpu.barrier
    %w = memref.load %tile[%tx] : memref<16384xf32, 3>
    memref.store %w, %a[%i] : memref<16384xf32>
    gpu.terminator
  }
  return
}
