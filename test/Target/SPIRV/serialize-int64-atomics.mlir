// RUN: kiln-opt %s --kiln-gpu-to-spirv -split-input-file -verify-diagnostics | FileCheck %s

// spirv-update-vce cannot see that an atomic works on 64-bit integers; the
// serializer declares Int64Atomics where the target env allows it...

// CHECK: gpu.binary @allowed
module attributes {gpu.container_module} {
  gpu.module @allowed attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int64Atomics], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @count(%c: memref<4xi64>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i64
      %old = memref.atomic_rmw addi %one, %c[%c0] : (i64, memref<4xi64>) -> i64
      gpu.return
    }
  }
}

// -----

// ...and refuses, at the atomic, where it does not.
module attributes {gpu.container_module} {
  gpu.module @refused attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @count(%c: memref<4xi64>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i64
      // expected-error @+1 {{64-bit integer atomics need capability Int64Atomics, which this target env does not have}}
      %old = memref.atomic_rmw addi %one, %c[%c0] : (i64, memref<4xi64>) -> i64
      gpu.return
    }
  }
}
