// A kernel whose argument's descriptor set and binding the program chooses
// (descriptor-limits.mlir substitutes SET and BINDING).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%x: memref<8xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(SET, BINDING)>})
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %i = gpu.thread_id x
      %v = arith.constant 2.0 : f32
      memref.store %v, %x[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %x = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%x : memref<8xf32>)
    %u = memref.cast %x : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
