// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Ten damped Jacobi sweeps: gpu.launch inside a host scf.for, the sweep number reaching the kernel as a push constant.

// CHECK: OpEntryPoint GLCompute %{{.*}} "jacobi_sweeps_kernel"
// CHECK-NOT: OpEntryPoint
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: %[[PC:[_a-z0-9]+]] = OpTypeStruct %uint{{$}}
// CHECK: %[[PCVAR:.*]] = OpVariable %{{.*}} PushConstant
// CHECK: OpFunction
// CHECK: %[[P0:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_0
// CHECK-NEXT: %[[SWEEP:[0-9]+]] = OpLoad %uint %[[P0]]
// CHECK: OpConvertUToF %float %[[SWEEP]]
// CHECK: OpFDiv %float
// CHECK: OpFMul %float
// CHECK: OpStore

func.func @jacobi_sweeps(%u: memref<1026xf32>, %rhs: memref<1026xf32>,
                         %tmp: memref<1026xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %sweep = %c0 to %c10 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %k1 = arith.constant 1 : index
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %base = arith.muli %bx, %sx : index
      %i0 = arith.addi %base, %tx : index
      // Interior point i in [1, 1024].
      %i = arith.addi %i0, %k1 : index
      %im = arith.subi %i, %k1 : index
      %ip = arith.addi %i, %k1 : index
      %l = memref.load %u[%im] : memref<1026xf32>
      %r = memref.load %u[%ip] : memref<1026xf32>
      %f = memref.load %rhs[%i] : memref<1026xf32>
      // Damping weight 1 / (sweep + 1) shrinks over the sweeps.
      %sweep_i32 = arith.index_castui %sweep : index to i32
      %sweep_f = arith.uitofp %sweep_i32 : i32 to f32
      %den = arith.addf %sweep_f, %one : f32
      %w = arith.divf %one, %den : f32
      %nb = arith.addf %l, %r : f32
      %sum = arith.addf %nb, %f : f32
      %avg = arith.mulf %sum, %half : f32
      %upd = arith.mulf %avg, %w : f32
      memref.store %upd, %tmp[%i] : memref<1026xf32>
      gpu.terminator
    }
    memref.copy %tmp, %u : memref<1026xf32> to memref<1026xf32>
  }
  return
}
