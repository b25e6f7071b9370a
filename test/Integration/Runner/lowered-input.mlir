// RUN: kiln-opt %s --kiln-gpu-to-vulkan=target-env=lavapipe -o %t.llvm.mlir
// RUN: kiln-vulkan-runner %t.llvm.mlir --validate | FileCheck %s
// Input already lowered to the LLVM dialect (by kiln-opt --kiln-gpu-to-vulkan)
// runs as it is.

// CHECK: [0,  10,  20,  30,  40,  50,  60,  70]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc() : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %ten = arith.constant 10 : index
    %v = arith.muli %tx, %ten : index
    %vi = arith.index_cast %v : index to i32
    memref.store %vi, %m[%tx] : memref<8xi32>
    gpu.terminator
  }
  %u = memref.cast %m : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %m : memref<8xi32>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
