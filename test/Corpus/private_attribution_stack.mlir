// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// A gpu.launch private attribution (per-invocation scratch) becomes a
// Function-storage variable.

// CHECK: OpEntryPoint GLCompute %{{.*}} "reverse4_kernel"
// CHECK: %[[PTR:.*]] = OpTypePointer Function %{{.*}}
// CHECK: OpFunction
// CHECK: OpVariable %[[PTR]] Function
// CHECK: OpAccessChain %_ptr_Function_float
// CHECK: OpStore

func.func @reverse4(%x: memref<256xf32>, %y: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             private(%tmp : memref<4xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1 : index
    %base = arith.muli %tx, %c4 : index
    scf.for %k = %c0 to %c4 step %one {
      %i = arith.addi %base, %k : index
      %v = memref.load %x[%i] : memref<256xf32>
      memref.store %v, %tmp[%k] : memref<4xf32, #gpu.address_space<private>>
    }
    scf.for %k = %c0 to %c4 step %one {
      %i = arith.addi %base, %k : index
      %r = arith.subi %c3, %k : index
      %v = memref.load %tmp[%r] : memref<4xf32, #gpu.address_space<private>>
      memref.store %v, %y[%i] : memref<256xf32>
    }
    gpu.terminator
  }
  return
}
