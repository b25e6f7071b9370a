// RUN: kiln-opt %s --pass-pipeline='builtin.module(gpu.module(kiln-inline-device-functions))' | FileCheck %s

// Calls are inlined transitively and the functions erased; a body of several
// blocks becomes an scf.execute_region, also inside an scf.if.
// CHECK-LABEL: gpu.module @m
// CHECK-NOT: func.func
// CHECK-LABEL: gpu.func @k
// CHECK-NOT: func.call
// CHECK: %[[SQ:.*]] = arith.mulf %[[X:.*]], %[[X]] : f32
// CHECK-NEXT: arith.addf %[[SQ]], %{{.*}} : f32
// CHECK: scf.if
// CHECK-NEXT: scf.execute_region {
// CHECK: cf.cond_br
// CHECK: scf.yield
// CHECK: scf.yield
gpu.module @m {
  func.func @square(%x: f32) -> f32 {
    %y = arith.mulf %x, %x : f32
    return %y : f32
  }
  func.func @poly(%x: f32) -> f32 {
    %one = arith.constant 1.0 : f32
    %s = call @square(%x) : (f32) -> f32
    %r = arith.addf %s, %one : f32
    return %r : f32
  }
  func.func @clamp_store(%m: memref<4xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0.0 : f32
    %n = arith.cmpf olt, %v, %z : f32
    cf.cond_br %n, ^a, ^b
  ^a:
    memref.store %z, %m[%c0] : memref<4xf32>
    return
  ^b:
    memref.store %v, %m[%c0] : memref<4xf32>
    return
  }
  gpu.func @k(%m: memref<4xf32>, %x: f32, %c: i1) kernel {
    %p = func.call @poly(%x) : (f32) -> f32
    scf.if %c {
      func.call @clamp_store(%m, %p) : (memref<4xf32>, f32) -> ()
    }
    gpu.return
  }
}
