// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(kiln-lower-shuffle))" | FileCheck %s

// Any width but a constant 32: the lane is computed, valid is
// lane < width && source < width (unsigned), and an invalid lane reads its
// own value; the shuffle is an idx shuffle over the active lanes with no
// segments (clamp 31).
// CHECK-LABEL: gpu.func @down
// CHECK: %[[LANE:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[FROM:.*]] = arith.addi %[[LANE]], %[[OFF:.*]] : i32
// CHECK: %[[LANEIN:.*]] = arith.cmpi ult, %[[LANE]], %[[W:.*]] : i32
// CHECK: %[[FROMIN:.*]] = arith.cmpi ult, %[[FROM]], %[[W]] : i32
// CHECK: %[[VALID:.*]] = arith.andi %[[LANEIN]], %[[FROMIN]] : i1
// CHECK: %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK: %[[SRC:.*]] = arith.select %[[VALID]], %[[FROM]], %[[LANE]] : i32
// CHECK: %[[R:.*]] = nvvm.shfl.sync idx %[[MASK]], %{{.*}}, %[[SRC]], %{{.*}} : i32 -> i32
// CHECK: arith.bitcast %[[R]] : i32 to f32
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @down(%x: f32, %off: i32, %w: i32) -> f32 {
    %r, %valid = gpu.shuffle down %x, %off, %w : f32
    %z = arith.constant 0.0 : f32
    %s = arith.select %valid, %r, %z : f32
    gpu.return %s : f32
  }
}

// -----

// A constant width of 32 (a whole warp, what subgroup reductions use):
// the mode's own shuffle with the offset as it is.
// CHECK-LABEL: gpu.func @butterfly
// CHECK: %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"
// CHECK: nvvm.shfl.sync bfly %[[MASK]], %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-LABEL: gpu.func @up32
// CHECK: nvvm.shfl.sync up
gpu.module @m {
  gpu.func @butterfly(%x: i32) -> i32 {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r, %valid = gpu.shuffle xor %x, %c1, %c32 : i32
    gpu.return %r : i32
  }
  gpu.func @up32(%x: i32) -> i32 {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r, %valid = gpu.shuffle up %x, %c1, %c32 : i32
    gpu.return %r : i32
  }
}

// -----

// 64-bit values move as two 32-bit halves, narrower ones widened, vectors
// element by element.
// CHECK-LABEL: gpu.func @wide
// CHECK-COUNT-2: nvvm.shfl.sync idx
// CHECK: arith.ori
// CHECK-LABEL: gpu.func @narrow
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK: nvvm.shfl.sync idx
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK-LABEL: gpu.func @vector
// CHECK-COUNT-2: nvvm.shfl.sync idx
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xi32>
gpu.module @m {
  gpu.func @wide(%x: f64, %off: i32, %w: i32) -> f64 {
    %r, %valid = gpu.shuffle idx %x, %off, %w : f64
    gpu.return %r : f64
  }
  gpu.func @narrow(%x: f16, %off: i32, %w: i32) -> f16 {
    %r, %valid = gpu.shuffle xor %x, %off, %w : f16
    gpu.return %r : f16
  }
  gpu.func @vector(%x: vector<2xi32>, %off: i32, %w: i32) -> vector<2xi32> {
    %r, %valid = gpu.shuffle xor %x, %off, %w : vector<2xi32>
    gpu.return %r : vector<2xi32>
  }
}
