// --kiln-spirv-to-cpu, barriers and subgroup operations
// (BarriersAndSubgroups.cpp): each spirv.GroupNonUniform* op calls the
// runtime's __kiln_spirv_cpu_subgroup with its value and result through
// allocas hoisted into the entry block, a Subgroup-scope control barrier is
// an Elect between two fences, a memory barrier a fence, and the kernel's
// flags say that it uses subgroup operations (2).
// RUN: kiln-opt %s --kiln-spirv-to-cpu | FileCheck %s

// CHECK-DAG: llvm.func @__kiln_spirv_cpu_subgroup(!llvm.ptr, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, i32)
// CHECK-LABEL: llvm.func internal @__kiln_cpu_kernels_k(%arg0: !llvm.ptr, %arg1: f32, %arg2: i32) -> f32
// The allocas are in the entry block, before the first call.
// CHECK: llvm.alloca %{{.*}} x f32
// CHECK: llvm.store %arg1, %[[VALUE:.*]] : f32, !llvm.ptr
// FAdd (2) of f32 (6), one component, InclusiveScan (1):
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[INCLUSIVE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[FADD:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[F32:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_spirv_cpu_subgroup(%arg0, %{{.*}}, %[[FADD]], %[[F32]], %[[ONE]], %[[VALUE]], %[[RESULT:.*]], %[[INCLUSIVE]])
// CHECK-NEXT: llvm.load %[[RESULT]] : !llvm.ptr -> f32
// Shuffle (34) by the id operand:
// CHECK: %[[SHUFFLE:.*]] = llvm.mlir.constant(34 : i32) : i32
// CHECK: llvm.call @__kiln_spirv_cpu_subgroup(%arg0, %{{.*}}, %[[SHUFFLE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg2)
// The Subgroup-scope control barrier: Elect (64) of a bool (0), between
// fences; then the memory barrier's fence.
// CHECK: llvm.fence seq_cst
// CHECK: %[[ELECT:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[BOOL:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @__kiln_spirv_cpu_subgroup(%arg0, %{{.*}}, %[[ELECT]], %[[BOOL]],
// CHECK-NEXT: llvm.fence seq_cst
// CHECK-NEXT: llvm.fence seq_cst
// The kernel's flags (after the ABI version): subgroup operations (2) and
// bounded accesses (16).
// CHECK: llvm.mlir.global private constant @__kiln_cpu.kernels_main_desc()
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.mlir.constant({{[0-9]+}} : i32) : i32
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.mlir.constant(18 : i32) : i32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic, GroupNonUniformShuffle], []> attributes {
        spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic, GroupNonUniformShuffle], []>, #spirv.resource_limits<>>} {
      spirv.func @k(%x: f32, %id: i32) -> f32 "None" {
        %scan = spirv.GroupNonUniformFAdd <Subgroup> <InclusiveScan> %x : f32 -> f32
        %shuffled = spirv.GroupNonUniformShuffle <Subgroup> %scan, %id : f32, i32
        spirv.ControlBarrier <Subgroup>, <Subgroup>, <AcquireRelease|SubgroupMemory>
        spirv.MemoryBarrier <Subgroup>, <AcquireRelease|SubgroupMemory>
        spirv.ReturnValue %shuffled : f32
      }
      spirv.func @main() "None" attributes {
          spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
        %x = spirv.Constant 1.0 : f32
        %id = spirv.Constant 0 : i32
        %r = spirv.FunctionCall @k(%x, %id) : (f32, i32) -> f32
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @main
      spirv.ExecutionMode @main "LocalSize", 32, 1, 1
    }
  }
}
