// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Kernels calling func.func device functions defined beside the host code:
// nested calls, a function taking a memref, and a function whose body is a
// CFG (several blocks), called at the top of the kernel and inside an
// scf.if. Kiln inlines them into the kernel.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [10, 5, 2, 1, 0, 0, 0, 0]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [-1, -1, -1, -1, 16, 25, 36, 49]

func.func private @printMemrefF32(memref<*xf32>)

func.func @square(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

func.func @poly(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %sq = call @square(%x) : (f32) -> f32
  %r = arith.addf %sq, %one : f32
  return %r : f32
}

// Stores max(v, 0) at m[i], through two blocks.
func.func @store_clamped(%m: memref<8xf32>, %i: index, %v: f32) {
  %zero = arith.constant 0.0 : f32
  %neg = arith.cmpf olt, %v, %zero : f32
  cf.cond_br %neg, ^clamp, ^keep
^clamp:
  memref.store %zero, %m[%i] : memref<8xf32>
  return
^keep:
  memref.store %v, %m[%i] : memref<8xf32>
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc() : memref<8xf32>
  %n = memref.alloc() : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    %c3 = arith.constant 3.0 : f32
    %g = arith.subf %f, %c3 : f32
    %p = func.call @poly(%g) : (f32) -> f32
    %neg = arith.negf %p : f32
    %low = arith.cmpi ult, %tx, %c4 : index
    %v = arith.select %low, %p, %neg : f32
    func.call @store_clamped(%m, %tx, %v) : (memref<8xf32>, index, f32) -> ()

    %minus1 = arith.constant -1.0 : f32
    memref.store %minus1, %n[%tx] : memref<8xf32>
    scf.if %low {
    } else {
      %fsq = func.call @square(%f) : (f32) -> f32
      func.call @store_clamped(%n, %tx, %fsq) : (memref<8xf32>, index, f32) -> ()
    }
    gpu.terminator
  }
  %u = memref.cast %m : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %w = memref.cast %n : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%w) : (memref<*xf32>) -> ()
  return
}
