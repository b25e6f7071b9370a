// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Soft-threshold denoise: clamp with arith.minimumf / arith.maximumf, zero small values via arith.cmpf + arith.select.

// CHECK: OpEntryPoint GLCompute %{{.*}} "soft_threshold_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 128 1 1
// CHECK: OpFunction
// minimumf / maximumf propagate NaN: FMin / FMax plus OpIsNan selects.
// CHECK: OpExtInst %float %{{[0-9]+}} FMin
// CHECK: OpIsNan %bool
// CHECK: OpSelect %float
// CHECK: OpExtInst %float %{{[0-9]+}} FMax
// CHECK: OpIsNan %bool
// CHECK: OpSelect %float
// CHECK: OpExtInst %float %{{[0-9]+}} FAbs
// CHECK: %[[SMALL:[0-9]+]] = OpFOrdLessThan %bool
// CHECK: OpSelect %float %[[SMALL]] %float_0
// CHECK: OpStore

func.func @soft_threshold(%x: memref<8192xf32>, %y: memref<8192xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %lo = arith.constant -4.0 : f32
    %hi = arith.constant 4.0 : f32
    %eps = arith.constant 0.125 : f32
    %zero = arith.constant 0.0 : f32
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<8192xf32>
    %upper = arith.minimumf %v, %hi : f32
    %clamped = arith.maximumf %upper, %lo : f32
    %mag = math.absf %clamped : f32
    %small = arith.cmpf olt, %mag, %eps : f32
    %r = arith.select %small, %zero, %clamped : f32
    memref.store %r, %y[%i] : memref<8192xf32>
    gpu.terminator
  }
  return
}
