// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Row-wise max normalization: each thread takes a rank-reducing memref.subview of its row of a memref<?x?xf32>.

// CHECK: OpEntryPoint GLCompute %{{.*}} "normalize_rows_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: %[[PC:[_a-z0-9]+]] = OpTypeStruct %uint %uint %uint %uint %uint{{$}}
// CHECK: %[[PCVAR:.*]] = OpVariable %{{.*}} PushConstant
// CHECK: OpFunction
// The row subview's offset is row * stride0 (the identity layout's offset
// is 0, not read from the push constants):
// CHECK-NOT: OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_0
// CHECK: %[[P3:[0-9]+]] = OpAccessChain %_ptr_PushConstant_uint %[[PCVAR]] %uint_3
// CHECK-NEXT: %[[S0:[0-9]+]] = OpLoad %uint %[[P3]]
// CHECK: %[[ROWOFF:[0-9]+]] = OpIMul %uint %{{[0-9]+}} %[[S0]]
// First loop: the running maximum.
// CHECK: OpLoopMerge
// CHECK: %[[AT:[0-9]+]] = OpIAdd %uint %[[ROWOFF]] %{{[0-9]+}}
// CHECK-NEXT: OpAccessChain %_ptr_StorageBuffer_float %{{.*}} %uint_0 %[[AT]]
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// Second loop: divide by it.
// CHECK: OpLoopMerge
// CHECK: OpFDiv %float
// CHECK: OpStore

func.func @normalize_rows(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %nblocks = arith.ceildivui %rows, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %nblocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %tiny = arith.constant 1.0e-30 : f32
    %nrows = memref.dim %m, %k0 : memref<?x?xf32>
    %ncols = memref.dim %m, %k1 : memref<?x?xf32>
    %base = arith.muli %bx, %sx : index
    %row = arith.addi %base, %tx : index
    %ok = arith.cmpi ult, %row, %nrows : index
    scf.if %ok {
      %r = memref.subview %m[%row, 0] [1, %ncols] [1, 1]
          : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
      %mx = scf.for %j = %k0 to %ncols step %k1 iter_args(%acc = %tiny) -> (f32) {
        %v = memref.load %r[%j] : memref<?xf32, strided<[1], offset: ?>>
        %a = math.absf %v : f32
        %nx = arith.maxnumf %acc, %a : f32
        scf.yield %nx : f32
      }
      scf.for %j = %k0 to %ncols step %k1 {
        %v = memref.load %r[%j] : memref<?xf32, strided<[1], offset: ?>>
        %q = arith.divf %v, %mx : f32
        memref.store %q, %r[%j] : memref<?xf32, strided<[1], offset: ?>>
      }
    }
    gpu.terminator
  }
  return
}
