// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s

// Vulkan's SPIR-V needs structured control flow: a cf.cond_br diamond is
// lifted into a selection, and an scf.index_switch (which has no SPIR-V
// lowering) becomes a chain of selections on `arg == case`, the default
// innermost (canonicalization makes the inner one a select).
// CHECK-LABEL: spirv.func @k
// CHECK-DAG: %[[C20:.*]] = spirv.Constant 20 : i32
// CHECK-DAG: %[[C2:.*]] = spirv.Constant 2 : i32
// CHECK-DAG: %[[C10:.*]] = spirv.Constant 10 : i32
// CHECK-DAG: %[[C1:.*]] = spirv.Constant 1 : i32
// CHECK: %[[X:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK: %[[NEG:.*]] = spirv.SLessThan %[[X]], %{{.*}} : i32
// CHECK: %[[VAR:.*]] = spirv.Variable : !spirv.ptr<i32, Function>
// CHECK: spirv.mlir.selection {
// CHECK:   spirv.BranchConditional %[[NEG]], ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK: ^[[THEN]]:
// CHECK:   %[[Y:.*]] = spirv.ISub %{{.*}}, %[[X]] : i32
// CHECK:   spirv.Store "Function" %[[VAR]], %[[Y]] : i32
// CHECK: ^[[ELSE]]:
// CHECK:   spirv.Store "Function" %[[VAR]], %[[X]] : i32
// CHECK: spirv.mlir.merge
// CHECK: %[[V:.*]] = spirv.Load "Function" %[[VAR]] : i32
// CHECK: %[[IS1:.*]] = spirv.IEqual %[[V]], %[[C1]] : i32
// CHECK: spirv.mlir.selection {
// CHECK:   spirv.BranchConditional %[[IS1]]
// CHECK:   spirv.Store "Function" %{{.*}}, %[[C10]] : i32
// CHECK:   %[[IS2:.*]] = spirv.IEqual %[[V]], %[[C2]] : i32
// CHECK:   %[[DEF:.*]] = spirv.Select %[[IS2]], %[[C20]], %[[V]] : i1, i32
// CHECK:   spirv.Store "Function" %{{.*}}, %[[DEF]] : i32
// CHECK: spirv.mlir.merge
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xi32>
      %c0 = arith.constant 0 : i32
      %neg = arith.cmpi slt, %x, %c0 : i32
      cf.cond_br %neg, ^bb1, ^bb2
    ^bb1:
      %y = arith.subi %c0, %x : i32
      cf.br ^bb3(%y : i32)
    ^bb2:
      cf.br ^bb3(%x : i32)
    ^bb3(%v: i32):
      %k = arith.index_cast %v : i32 to index
      %w = scf.index_switch %k -> i32
      case 1 {
        %c10 = arith.constant 10 : i32
        scf.yield %c10 : i32
      }
      case 2 {
        %c20 = arith.constant 20 : i32
        scf.yield %c20 : i32
      }
      default {
        scf.yield %v : i32
      }
      memref.store %w, %a[%i] : memref<64xi32>
      gpu.return
    }
  }
}
