// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Collatz stopping times: an scf.while iterates n -> n/2 or 3n+1 until n == 1 (at most 1000 steps) per thread.

// CHECK: OpEntryPoint GLCompute %{{.*}} "collatz_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpINotEqual %bool %{{[0-9]+}} %uint_1
// CHECK: OpSLessThan %bool %{{[0-9]+}} %uint_1000
// CHECK: %[[GO:[0-9]+]] = OpLogicalAnd %bool
// CHECK: OpLoopMerge %[[EXIT:[0-9]+]] %[[BODY:[0-9]+]] None
// CHECK-NEXT: OpBranchConditional %[[GO]] %[[BODY]] %[[EXIT]]
// CHECK: OpUMod %uint %{{[0-9]+}} %uint_2
// CHECK: OpUDiv %uint %{{[0-9]+}} %uint_2
// CHECK: OpIMul %uint %{{[0-9]+}} %uint_3
// CHECK: OpSelect %uint
// CHECK: %[[EXIT]] = OpLabel
// CHECK: OpStore

func.func @collatz(%start: memref<4096xi32>, %steps: memref<4096xi32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %n = arith.constant 4096 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    %limit = arith.constant 1000 : i32
    %zero = arith.constant 0 : i32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %v0 = memref.load %start[%i] : memref<4096xi32>
      %res:2 = scf.while (%v = %v0, %k = %zero) : (i32, i32) -> (i32, i32) {
        %not_one = arith.cmpi ne, %v, %one : i32
        %in_limit = arith.cmpi slt, %k, %limit : i32
        %go = arith.andi %not_one, %in_limit : i1
        scf.condition(%go) %v, %k : i32, i32
      } do {
      ^bb0(%cur: i32, %cnt: i32):
        %rem = arith.remui %cur, %two : i32
        %even = arith.cmpi eq, %rem, %zero : i32
        %half = arith.divui %cur, %two : i32
        %tripled = arith.muli %cur, %three : i32
        %odd_next = arith.addi %tripled, %one : i32
        %next = arith.select %even, %half, %odd_next : i32
        %cnt1 = arith.addi %cnt, %one : i32
        scf.yield %next, %cnt1 : i32, i32
      }
      memref.store %res#1, %steps[%i] : memref<4096xi32>
    }
    gpu.terminator
  }
  return
}
