// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// A loop that runs no iteration returns its initial values, alone and
// nested in a loop that yields its results; with one or more iterations the
// last yielded ones.

// trips = [0, 1, 3, 0]; out[t] = sum of t + 1 over `trips[t]` iterations,
// starting at 42; nested[t] = 4 outer rounds of the same inner loop.
// CHECK: [42,  44,  51,  42]
// CHECK: [42,  50,  78,  42]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i3 = arith.constant 3 : i32
  %trips = memref.alloc() : memref<4xi32>
  memref.store %i0, %trips[%c0] : memref<4xi32>
  memref.store %i1, %trips[%c1] : memref<4xi32>
  memref.store %i3, %trips[%c2] : memref<4xi32>
  memref.store %i0, %trips[%c3] : memref<4xi32>
  %out = memref.alloc() : memref<4xf32>
  %nested = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %c0k = arith.constant 0 : index
    %c1k = arith.constant 1 : index
    %c4k = arith.constant 4 : index
    %init = arith.constant 42.0 : f32
    %ni = memref.load %trips[%tx] : memref<4xi32>
    %n = arith.index_cast %ni : i32 to index
    %t1 = arith.addi %tx, %c1k : index
    %ti = arith.index_cast %t1 : index to i32
    %step = arith.sitofp %ti : i32 to f32
    %sum = scf.for %i = %c0k to %n step %c1k iter_args(%s = %init) -> (f32) {
      %next = arith.addf %s, %step : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[%tx] : memref<4xf32>
    %outer = scf.for %j = %c0k to %c4k step %c1k iter_args(%o = %init) -> (f32) {
      %inner = scf.for %i = %c0k to %n step %c1k iter_args(%s = %o) -> (f32) {
        %next = arith.addf %s, %step : f32
        scf.yield %next : f32
      }
      scf.yield %inner : f32
    }
    memref.store %outer, %nested[%tx] : memref<4xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %nested : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  memref.dealloc %trips : memref<4xi32>
  memref.dealloc %out : memref<4xf32>
  memref.dealloc %nested : memref<4xf32>
  return
}
