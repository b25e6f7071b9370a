// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | %mlir_runner - -e main --entry-point-result=void --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s
// Two launch targets whose <module>_<kernel> meet (@a::@b_c and @a_b::@c):
// each launch runs its own kernel (4 + 8 added), not the first's twice or
// an error (upstream's gpu.launch_func translation shares one kernel name
// global between them; kiln-unique-kernel-names renames @a_b).

// CHECK: [12,  12,  12,  12]

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  gpu.module @a {
    gpu.func @b_c(%x: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %k = arith.constant 4.0 : f32
      %w = arith.addf %v, %k : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @a_b {
    gpu.func @c(%x: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %k = arith.constant 8.0 : f32
      %w = arith.addf %v, %k : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
    // Launching this instead of @c would leave 4 + 4.
    gpu.func @b_c(%x: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %k = arith.constant 4.0 : f32
      %w = arith.addf %v, %k : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %x = memref.alloc() : memref<4xf32>
    linalg.fill ins(%zero : f32) outs(%x : memref<4xf32>)
    gpu.launch_func @a::@b_c blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @a_b::@c blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    %u = memref.cast %x : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
