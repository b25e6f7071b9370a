// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Block tree reduction in a memref.alloc workgroup buffer (memory space 3), a gpu.barrier per halving step.

// CHECK: OpEntryPoint GLCompute %{{.*}} "block_sum_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: %_arr_float_uint_128 = OpTypeArray %float %uint_128
// CHECK: OpVariable %{{.*}} Workgroup
// CHECK: OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
// CHECK: OpPhi %uint %{{[0-9]+}} %{{[0-9]+}} %uint_64
// CHECK: OpLoopMerge
// CHECK: OpSelectionMerge
// CHECK: OpLoad %float
// CHECK: OpLoad %float
// CHECK: OpFAdd %float
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
// CHECK-NEXT: OpShiftRightLogical %uint %{{[0-9]+}} %uint_1
// CHECK: OpIEqual %bool %{{[0-9]+}} %uint_0
// CHECK: OpSelectionMerge

func.func @block_sum(%in: memref<16384xf32>, %partial: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c128, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %smem = memref.alloc() : memref<128xf32, 3>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<16384xf32>
    memref.store %v, %smem[%tx] : memref<128xf32, 3>
    gpu.barrier
    %s = scf.while (%stride = %c64) : (index) -> index {
      %more = arith.cmpi ugt, %stride, %c0 : index
      scf.condition(%more) %stride : index
    } do {
    ^bb0(%st: index):
      %active = arith.cmpi ult, %tx, %st : index
      scf.if %active {
        %other = arith.addi %tx, %st : index
        %a = memref.load %smem[%tx] : memref<128xf32, 3>
        %b = memref.load %smem[%other] : memref<128xf32, 3>
        %sum = arith.addf %a, %b : f32
        memref.store %sum, %smem[%tx] : memref<128xf32, 3>
      }
      gpu.barrier
      %c1_i = arith.constant 1 : index
      %half = arith.shrui %st, %c1_i : index
      scf.yield %half : index
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %total = memref.load %smem[%c0] : memref<128xf32, 3>
      memref.store %total, %partial[%bx] : memref<128xf32>
    }
    gpu.terminator
  }
  return
}
