// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// Workgroup memory with aligned vector accesses is a nested array of
// vectors, as glslc emits `shared vec4 t[4][4]`: a vector access is one
// access chain and one four-wide load or store, a scalar access an access
// chain into the vector's component.
// CHECK-DAG: spirv.GlobalVariable @[[TILE:__workgroup_mem__[0-9]+]] : !spirv.ptr<!spirv.array<4 x !spirv.array<4 x vector<4xf32>>>, Workgroup>
// Memory that does not qualify stays a flat array of scalars.
// CHECK-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32>)>, Workgroup>
// CHECK-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<32 x f32>)>, Workgroup>
// CHECK-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<16 x i32>)>, Workgroup>

// CHECK-LABEL: spirv.func @tiles
// CHECK-DAG: %[[TX:.*]] = spirv.CompositeExtract %{{.*}}[0 : i32]
// CHECK-DAG: %[[TY:.*]] = spirv.CompositeExtract %{{.*}}[1 : i32]
// A scalar store at column tx: vector tx >> 2, component tx & 3.
// CHECK-DAG: %[[VEC:.*]] = spirv.ShiftRightArithmetic %[[TX]]
// CHECK-DAG: %[[COMP:.*]] = spirv.BitwiseAnd %[[TX]]
// CHECK: %[[P:.*]] = spirv.AccessChain %{{.*}}[%[[TY]], %[[VEC]], %[[COMP]]] : {{.*}} -> !spirv.ptr<f32, Workgroup>
// CHECK: spirv.Store "Workgroup" %[[P]], %{{.*}} : f32
// CHECK: spirv.ControlBarrier
// A vector load at column 4 ty: vector ty, no index arithmetic.
// CHECK: %[[V:.*]] = spirv.AccessChain %{{.*}}[%[[TX]], %[[TY]]] : {{.*}} -> !spirv.ptr<vector<4xf32>, Workgroup>
// CHECK: spirv.Load "Workgroup" %[[V]] : vector<4xf32>
// A scalar load at column 5: vector 1, component 1.
// CHECK: spirv.AccessChain %{{.*}}[%{{.*}}, %[[ONE:.*]], %[[ONE]]] : {{.*}} -> !spirv.ptr<f32, Workgroup>
// CHECK: spirv.Load "Workgroup" %{{.*}} : f32
// A vector store: one access chain, one store.
// CHECK: spirv.AccessChain %{{.*}} -> !spirv.ptr<vector<4xf32>, Workgroup>
// CHECK: spirv.Store "Workgroup" %{{.*}}, %{{.*}} : vector<4xf32>

// CHECK-LABEL: spirv.func @misaligned
// CHECK-COUNT-4: spirv.Load "Workgroup" %{{.*}} : f32
// CHECK-LABEL: spirv.func @mixed_widths
// CHECK-LABEL: spirv.func @atomic

#wg = #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @tiles(%out: memref<16x4xf32>, %sum: memref<16xf32>)
        workgroup(%tile: memref<4x16xf32, #wg>)
        kernel attributes {known_block_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %one = arith.constant 1.0 : f32
      memref.store %one, %tile[%ty, %tx] : memref<4x16xf32, #wg>
      gpu.barrier
      %ty4 = arith.muli %ty, %c4 : index
      %t = arith.addi %ty4, %tx : index
      %v = vector.load %tile[%tx, %ty4] : memref<4x16xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%t, %c0] : memref<16x4xf32>, vector<4xf32>
      %s = memref.load %tile[%c0, %c5] : memref<4x16xf32, #wg>
      memref.store %s, %sum[%t] : memref<16xf32>
      gpu.barrier
      vector.store %v, %tile[%ty, %ty4] : memref<4x16xf32, #wg>, vector<4xf32>
      gpu.return
    }

    // The vector access starts at an odd column.
    gpu.func @misaligned(%out: memref<16x4xf32>)
        workgroup(%tile: memref<64xf32, #wg>)
        kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %tile[%tx] : memref<64xf32, #wg>
      gpu.barrier
      %odd = arith.addi %tx, %tx : index
      %at = arith.addi %odd, %tx : index
      %v = vector.load %tile[%at] : memref<64xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
      gpu.return
    }

    // Two- and four-wide accesses to the same memory.
    gpu.func @mixed_widths(%out: memref<16x4xf32>)
        workgroup(%tile: memref<32xf32, #wg>)
        kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %at = arith.muli %tx, %c4 : index
      %two = arith.constant dense<1.0> : vector<2xf32>
      vector.store %two, %tile[%at] : memref<32xf32, #wg>, vector<2xf32>
      gpu.barrier
      %v = vector.load %tile[%at] : memref<32xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
      gpu.return
    }

    // An atomic on the memory.
    gpu.func @atomic(%out: memref<16x4xi32>)
        workgroup(%tile: memref<16xi32, #wg>)
        kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %tile[%tx] : (i32, memref<16xi32, #wg>) -> i32
      gpu.barrier
      %at = arith.muli %tx, %c4 : index
      %v = vector.load %tile[%at] : memref<16xi32, #wg>, vector<4xi32>
      vector.store %v, %out[%tx, %c0] : memref<16x4xi32>, vector<4xi32>
      gpu.return
    }
  }

  func.func @main(%a: memref<16x4xf32>, %b: memref<16xf32>, %c: memref<16x4xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @m::@tiles blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1) args(%a : memref<16x4xf32>, %b : memref<16xf32>)
    gpu.launch_func @m::@misaligned blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16x4xf32>)
    gpu.launch_func @m::@mixed_widths blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<16x4xf32>)
    gpu.launch_func @m::@atomic blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c : memref<16x4xi32>)
    return
  }
}
