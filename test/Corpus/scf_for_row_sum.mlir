// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Row sums of a 1024x256 f32 matrix: one thread per row, an scf.for loop with an iter_args accumulator.

// CHECK: OpEntryPoint GLCompute %{{.*}} "row_sum_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// The loop's result is the header's phi, not a Function variable.
// CHECK-NOT: OpVariable %_ptr_Function_float Function
// CHECK: OpSelectionMerge
// CHECK: OpBranch %[[HEADER:[0-9]+]]
// CHECK-NEXT: %[[HEADER]] = OpLabel
// CHECK-NEXT: %[[IV:[0-9]+]] = OpPhi %uint
// CHECK-NEXT: %[[ACC:[0-9]+]] = OpPhi %float
// CHECK-NEXT: OpSLessThan %bool %[[IV]] %uint_256
// CHECK-NEXT: OpLoopMerge %[[MERGE:[0-9]+]] %{{[0-9]+}} None
// CHECK: OpFAdd %float %[[ACC]]
// CHECK: OpIAdd %uint %[[IV]] %uint_1
// CHECK-NEXT: OpBranch %[[HEADER]]
// CHECK-NEXT: %[[MERGE]] = OpLabel
// CHECK-NEXT: OpAccessChain
// CHECK-NEXT: OpStore %{{[0-9]+}} %[[ACC]]

func.func @row_sum(%m: memref<1024x256xf32>, %sums: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %step = arith.constant 1 : index
    %rows = arith.constant 1024 : index
    %cols = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %base = arith.muli %bx, %sx : index
    %row = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %row, %rows : index
    scf.if %ok {
      %total = scf.for %j = %c0 to %cols step %step
          iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %m[%row, %j] : memref<1024x256xf32>
        %next = arith.addf %acc, %v : f32
        scf.yield %next : f32
      }
      memref.store %total, %sums[%row] : memref<1024xf32>
    }
    gpu.terminator
  }
  return
}
