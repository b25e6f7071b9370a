// RUN: kiln-opt %s --kiln-gpu-to-spirv | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-spirv='target-env=lavapipe' | FileCheck %s --check-prefix=LAVAPIPE

// The whole pipeline: gpu.launch is outlined and each GPU module becomes a
// gpu.binary holding Kiln's container ("KILN", version 3) for its target env.
// CHECK: gpu.launch_func  @main_kernel::@main_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<?xf32>, %{{.*}} : f32)
// CHECK: gpu.binary @main_kernel  [#gpu.object<#spirv.target_env<#spirv.vce<v1.6, [Shader, Float16
// CHECK-SAME: properties = {format = "kiln-spirv"}, bin = "KILN\03\00\00\00
// LAVAPIPE: gpu.binary @main_kernel  [#gpu.object<#spirv.target_env<#spirv.vce<v1.6, [Shader, Float16
module attributes {gpu.container_module} {
  func.func @main(%a: memref<?xf32>, %k: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %a, %c0 : memref<?xf32>
    %nb = arith.ceildivui %n, %c64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %len = memref.dim %a, %c0 : memref<?xf32>
      %in = arith.cmpi ult, %i, %len : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = arith.mulf %x, %k : f32
        memref.store %y, %a[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }
}
