// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | %mlir_runner - -e main --entry-point-result=void --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s
// Launches on two streams (two `gpu.wait async` roots), one of them a chain,
// joined by a host wait on both: each async op gets one dependency
// (kiln-merge-async-dependencies), as gpu-to-llvm needs.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @inc(%x: memref<16xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<16xf32>
      %one = arith.constant 1.0 : f32
      %w = arith.addf %v, %one : f32
      memref.store %w, %x[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = memref.alloc() : memref<16xf32>
    %b = memref.alloc() : memref<16xf32>
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%a : memref<16xf32>)
    linalg.fill ins(%z : f32) outs(%b : memref<16xf32>)
    %s0 = gpu.wait async
    %s1 = gpu.wait async
    %t0 = gpu.launch_func async [%s0] @kernels::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    %t1 = gpu.launch_func async [%s1] @kernels::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%b : memref<16xf32>)
    %t2 = gpu.launch_func async [%t1] @kernels::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%b : memref<16xf32>)
    gpu.wait [%t0, %t2]
    %ua = memref.cast %a : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
    %ub = memref.cast %b : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
    return
  }
}
