// --kiln-spirv-to-cpu, arithmetic ops upstream's lowering leaves out
// (ArithmeticOps.cpp): GLSL Fma, SAbs and UMin as LLVM intrinsics, Dot as
// a product summed in lane order, SNegate as a subtraction from zero,
// IsNan as unordered with itself, IsInf as |x| == infinity, and a vector
// constructed from scalars and a smaller vector, element by element.
// RUN: kiln-opt %s --kiln-spirv-to-cpu | FileCheck %s

// CHECK-LABEL: llvm.func internal @__kiln_cpu_kernels_scalars(%arg0: !llvm.ptr, %arg1: f32, %arg2: i32)
// CHECK: llvm.intr.fma(%arg1, %arg1, %arg1) : (f32, f32, f32) -> f32
// CHECK: "llvm.intr.abs"(%arg2) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK: llvm.intr.umin(%arg2, %arg2) : (i32, i32) -> i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : i32
// CHECK: llvm.sub %[[ZERO]], %arg2 : i32
// CHECK: llvm.fcmp "uno" %arg1, %arg1 : f32
// CHECK: %[[INF:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
// CHECK: %[[ABS:.*]] = llvm.intr.fabs(%arg1) : (f32) -> f32
// CHECK: llvm.fcmp "oeq" %[[ABS]], %[[INF]] : f32

// CHECK-LABEL: llvm.func internal @__kiln_cpu_kernels_vectors(%arg0: !llvm.ptr, %arg1: vector<2xf32>, %arg2: f32)
// CHECK: %[[PRODUCT:.*]] = llvm.fmul %arg1, %arg1 : vector<2xf32>
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: "llvm.intr.vector.reduce.fadd"(%[[ZERO]], %[[PRODUCT]])
// CHECK: %[[POISON:.*]] = llvm.mlir.poison : vector<4xf32>
// CHECK: %[[W0:.*]] = llvm.insertelement %arg2, %[[POISON]]
// CHECK: %[[X:.*]] = llvm.extractelement %arg1
// CHECK: %[[W1:.*]] = llvm.insertelement %[[X]], %[[W0]]
// CHECK: %[[Y:.*]] = llvm.extractelement %arg1
// CHECK: %[[W2:.*]] = llvm.insertelement %[[Y]], %[[W1]]
// CHECK: %[[W3:.*]] = llvm.insertelement %arg2, %[[W2]]
// CHECK: llvm.return %[[W3]] : vector<4xf32>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> attributes {
        spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
      spirv.func @scalars(%x: f32, %i: i32) -> i32 "None" {
        %fma = spirv.GL.Fma %x, %x, %x : f32
        %abs = spirv.GL.SAbs %i : i32
        %min = spirv.GL.UMin %i, %i : i32
        %neg = spirv.SNegate %i : i32
        %nan = spirv.IsNan %x : f32
        %inf = spirv.IsInf %x : f32
        spirv.ReturnValue %neg : i32
      }
      spirv.func @vectors(%v: vector<2xf32>, %x: f32) -> vector<4xf32> "None" {
        %dot = spirv.Dot %v, %v : vector<2xf32> -> f32
        %w = spirv.CompositeConstruct %x, %v, %x : (f32, vector<2xf32>, f32) -> vector<4xf32>
        spirv.ReturnValue %w : vector<4xf32>
      }
      spirv.func @main() "None" attributes {
          spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @main
      spirv.ExecutionMode @main "LocalSize", 1, 1, 1
    }
  }
}
