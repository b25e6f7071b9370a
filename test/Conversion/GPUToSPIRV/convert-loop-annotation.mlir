// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s
// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: rm -rf %t.ptx && kiln-compile %s --target=cuda --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// An scf.for's loop annotation (#llvm.loop_annotation, the MLIR form of
// CUDA's `#pragma unroll`) is the SPIR-V loop control of its loop, as glslc
// makes of GLSL's [[unroll]] and [[dont_unroll]]; the NVVM path hands it to
// LLVM, which unrolls the loop.

// CHECK-LABEL: spirv.func @loops
// CHECK: spirv.mlir.loop control(Unroll)
// CHECK: spirv.mlir.loop control(DontUnroll)
// CHECK: spirv.mlir.loop {

// Each loop gets its own control, also when loops share a location (as
// generated IR's often do), and keeps its location.
// CHECK-LABEL: spirv.func @same_location
// CHECK: spirv.mlir.loop {
// CHECK: spirv.mlir.loop control(Unroll)
// CHECK: spirv.mlir.loop {
// CHECK-NOT: spirv.mlir.loop
// LOC-NOT: kiln.loop_control
// LOC: = loc("tile")
// LOC-NOT: kiln.loop_control

// The fully unrolled loop: 8 multiply-adds in a row; the others stay loops.
// PTX-LABEL: .entry loops(
// PTX-COUNT-8: fma.rn.f32
// PTX: bra

#unroll = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>
#keep = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @loops(%out: memref<64xf32>, %n: index) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %x = memref.load %out[%tx] : memref<64xf32>
      %a = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %x) -> (f32) {
        %m = math.fma %s, %x, %x : f32
        scf.yield %m : f32
      } {loop_annotation = #unroll}
      %b = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %a) -> (f32) {
        %m = arith.mulf %s, %x : f32
        scf.yield %m : f32
      } {loop_annotation = #keep}
      %c = scf.for %i = %c0 to %n step %c1 iter_args(%s = %b) -> (f32) {
        %m = arith.addf %s, %x : f32
        scf.yield %m : f32
      }
      memref.store %c, %out[%tx] : memref<64xf32>
      gpu.return
    }
    gpu.func @same_location(%out: memref<64xf32>, %n: index) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %x = memref.load %out[%tx] : memref<64xf32>
      %a = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x) -> (f32) {
        %m = arith.addf %s, %x : f32
        scf.yield %m : f32
      } loc("tile")
      %b = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %a) -> (f32) {
        %m = math.fma %s, %x, %x : f32
        scf.yield %m : f32
      } {loop_annotation = #unroll} loc("tile")
      %c = scf.for %i = %c0 to %n step %c1 iter_args(%s = %b) -> (f32) {
        %m = arith.mulf %s, %x : f32
        scf.yield %m : f32
      } loc("tile")
      memref.store %c, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main(%out: memref<64xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@loops blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>, %n : index)
    return
  }
}
