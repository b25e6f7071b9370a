// RUN: kiln-opt %s --kiln-gpu-to-spirv-cpu | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s --entry-point-result=void -e names | FileCheck %s --check-prefix=OUT
// RUN: kiln-spirv-cpu-runner %s --entry-point-result=void -e modules | FileCheck %s --check-prefix=MODULES
// Kernel names that were the names of the module's tables (`register`,
// `sites`), and two modules whose kernels' names would meet (`a` with
// `b_c` and `a_b` with `c`): every function and table has a name of its
// own, and each launch runs its own kernel.

// CHECK-DAG: llvm.func internal @__kiln_cpu_m_register(
// CHECK-DAG: llvm.func internal @__kiln_cpu_m_sites(
// CHECK-DAG: llvm.func internal @__kiln_cpu.m_register()
// CHECK-DAG: llvm.func internal @__kiln_cpu_a_b_c(
// CHECK-DAG: llvm.func internal @__kiln_cpu_a_b_c_0(
// CHECK-DAG: llvm.func internal @__kiln_cpu.a_register()
// CHECK-DAG: llvm.func internal @__kiln_cpu.a_b_register()
// CHECK-DAG: llvm.mlir.addressof @__kiln_cpu.a_b_c_desc :
// CHECK-DAG: llvm.mlir.addressof @__kiln_cpu.a_b_c_desc_0 :
// OUT: [3,  3,  3,  3]
// MODULES: [12,  12,  12,  12]

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  gpu.module @m {
    gpu.func @register(%x: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %k = arith.constant 1.0 : f32
      %w = arith.addf %v, %k : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @sites(%x: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %k = arith.constant 2.0 : f32
      %w = arith.addf %v, %k : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
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
  }
  func.func @names() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %x = memref.alloc() : memref<4xf32>
    linalg.fill ins(%zero : f32) outs(%x : memref<4xf32>)
    gpu.launch_func @m::@register blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @m::@sites blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    %u = memref.cast %x : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  // @a::@b_c and @a_b::@c also share upstream's kernel name global
  // `a_b_c_name` unless kiln-unique-kernel-names renames @a_b (4 + 8 added).
  func.func @modules() {
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
