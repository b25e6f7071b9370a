// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(spirv.module(kiln-tidy-spirv))' | FileCheck %s

// A loop result that upstream's scf.for lowering parks in a Function
// variable (stored every iteration, loaded after the loop) becomes a result
// of the spirv.mlir.loop: the header's value, which is the initial value
// when the loop runs no iteration.

// CHECK-LABEL: spirv.module @loop_result
// CHECK: spirv.func @sum
// CHECK-NOT: spirv.Variable
// CHECK: %[[SUM:.*]] = spirv.mlir.loop -> f32 {
// CHECK: ^bb1(%{{.*}}: i32, %[[ACC:.*]]: f32):
// CHECK: spirv.BranchConditional
// CHECK-NOT: spirv.Store "Function"
// CHECK: spirv.mlir.merge %[[ACC]] : f32
// CHECK: }
// CHECK-NOT: spirv.Load "Function"
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %[[SUM]] : f32
spirv.module @loop_result Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @sum(%n: i32) "None" {
    %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    %zero = spirv.Constant 0.0 : f32
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %var = spirv.Variable : !spirv.ptr<f32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%c0, %zero : i32, f32)
    ^header(%i: i32, %acc: f32):
      %go = spirv.SLessThan %i, %n : i32
      spirv.BranchConditional %go, ^body, ^merge
    ^body:
      %p = spirv.AccessChain %in[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %v = spirv.Load "StorageBuffer" %p : f32
      %s = spirv.FAdd %acc, %v : f32
      spirv.Store "Function" %var, %s : f32
      %next = spirv.IAdd %i, %c1 : i32
      spirv.Branch ^header(%next, %s : i32, f32)
    ^merge:
      spirv.mlir.merge
    }
    %total = spirv.Load "Function" %var : f32
    %q = spirv.AccessChain %out[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %q, %total : f32
    spirv.Return
  }
}

// -----

// An inner loop's result that the outer loop carries (a phi of the outer
// header) becomes a result too; serialization copies it before the branch.

// CHECK-LABEL: spirv.module @nested
// CHECK-NOT: spirv.Variable
// CHECK: spirv.mlir.loop -> f32 {
// CHECK: %[[INNER:.*]] = spirv.mlir.loop -> f32 {
// CHECK: }
// CHECK: spirv.Branch ^bb1(%{{.*}}, %[[INNER]] : i32, f32)
spirv.module @nested Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @nested(%n: i32) "None" {
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    %one = spirv.Constant 1.0 : f32
    %zero = spirv.Constant 0.0 : f32
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c4 = spirv.Constant 4 : i32
    %outerVar = spirv.Variable : !spirv.ptr<f32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%c0, %zero : i32, f32)
    ^header(%j: i32, %o: f32):
      %go = spirv.SLessThan %j, %c4 : i32
      spirv.BranchConditional %go, ^body, ^merge
    ^body:
      %innerVar = spirv.Variable : !spirv.ptr<f32, Function>
      spirv.mlir.loop {
        spirv.Branch ^h(%c0, %o : i32, f32)
      ^h(%i: i32, %acc: f32):
        %g = spirv.SLessThan %i, %n : i32
        spirv.BranchConditional %g, ^b, ^m
      ^b:
        %s = spirv.FAdd %acc, %one : f32
        spirv.Store "Function" %innerVar, %s : f32
        %ni = spirv.IAdd %i, %c1 : i32
        spirv.Branch ^h(%ni, %s : i32, f32)
      ^m:
        spirv.mlir.merge
      }
      %inner = spirv.Load "Function" %innerVar : f32
      spirv.Store "Function" %outerVar, %inner : f32
      %nj = spirv.IAdd %j, %c1 : i32
      spirv.Branch ^header(%nj, %inner : i32, f32)
    ^merge:
      spirv.mlir.merge
    }
    %total = spirv.Load "Function" %outerVar : f32
    %q = spirv.AccessChain %out[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %q, %total : f32
    spirv.Return
  }
}

// -----

// A variable with other uses than the loop's store and the loads after it
// stays as it is.

// CHECK-LABEL: spirv.module @other_uses
// CHECK: spirv.Variable
// CHECK: spirv.mlir.loop {
spirv.module @other_uses Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @f(%n: i32) "None" {
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    %zero = spirv.Constant 0.0 : f32
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %var = spirv.Variable : !spirv.ptr<f32, Function>
    spirv.Store "Function" %var, %zero : f32
    spirv.mlir.loop {
      spirv.Branch ^header(%c0, %zero : i32, f32)
    ^header(%i: i32, %acc: f32):
      %go = spirv.SLessThan %i, %n : i32
      spirv.BranchConditional %go, ^body, ^merge
    ^body:
      %s = spirv.FAdd %acc, %acc : f32
      spirv.Store "Function" %var, %s : f32
      %next = spirv.IAdd %i, %c1 : i32
      spirv.Branch ^header(%next, %s : i32, f32)
    ^merge:
      spirv.mlir.merge
    }
    %total = spirv.Load "Function" %var : f32
    %q = spirv.AccessChain %out[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %q, %total : f32
    spirv.Return
  }
}

// -----

// Storage buffers that the module only reads are NonWritable, those it only
// writes NonReadable (GLSL's readonly and writeonly); one that is read and
// written, or reached by an atomic, gets neither.

// CHECK-LABEL: spirv.module @access
// CHECK-DAG: spirv.GlobalVariable @read_only bind(0, 0) {non_writable} :
// CHECK-DAG: spirv.GlobalVariable @write_only bind(0, 1) {non_readable} :
// CHECK-DAG: spirv.GlobalVariable @both bind(0, 2) :
// CHECK-DAG: spirv.GlobalVariable @atomic bind(0, 3) :
spirv.module @access Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @read_only bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @write_only bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @both bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @atomic bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @f(%i: i32) "None" {
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %r = spirv.mlir.addressof @read_only : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %w = spirv.mlir.addressof @write_only : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %b = spirv.mlir.addressof @both : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %a = spirv.mlir.addressof @atomic : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %rp = spirv.AccessChain %r[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %v = spirv.Load "StorageBuffer" %rp : f32
    %wp = spirv.AccessChain %w[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %wp, %v : f32
    %bp = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %u = spirv.Load "StorageBuffer" %bp : f32
    %u2 = spirv.FAdd %u, %v : f32
    spirv.Store "StorageBuffer" %bp, %u2 : f32
    %ap = spirv.AccessChain %a[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %old = spirv.AtomicIAdd <Device> <AcquireRelease> %ap, %c1 : !spirv.ptr<i32, StorageBuffer>
    spirv.Return
  }
}
