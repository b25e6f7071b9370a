// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// memref.generic_atomic_rmw (a compare-exchange loop on Vulkan) and
// memref.atomic_rmw of every integer kind, from 4 workgroups of 64
// invocations (t = thread id, b = block id, v = 3t - 50 + b), on a static
// i32 buffer, a dynamic i32 buffer and an i64 one.
//   0: generic: old + t          -> 4 * 2016 = 8064
//   1: generic: max(old, v)      -> 3*63 - 50 + 3 = 142
//   2: addi v                    -> 4 * (3*2016 - 3200) + 64 * 6 = 11776
//   3: maxs v                    -> 142
//   4: mins v                    -> -50
//   5: maxu v                    -> -1 (v = -1 at t = 16, b = 1: 0xffffffff)
//   6: minu v                    -> 0 (v = 0 at t = 16, b = 2)
//   7: andi ~(1 << (t % 8))      -> ~255 = -256 (starting from -1)
//   8: ori  1 << (t % 20)        -> 2^20 - 1
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [9] strides = [1] data =
// CHECK-NEXT: [8064, 142, 11776, 142, -50, -1, 0, -256, 1048575]
// The dynamic buffer: generic adds of 1 from every invocation; the i64
// element: generic old * 2 + 1 from 40 invocations of block 0 (2^40 - 1).
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [256, 256, 256]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data =
// CHECK-NEXT: [1099511627775]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i32
  %m1 = arith.constant -1 : i32
  %big = arith.constant 1000000 : i32
  %z64 = arith.constant 0 : i64
  %r = memref.alloc() : memref<9xi32>
  linalg.fill ins(%z : i32) outs(%r : memref<9xi32>)
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %i6 = arith.constant 6 : index
  %i7 = arith.constant 7 : index
  %mbig = arith.constant -1000000 : i32
  memref.store %mbig, %r[%i1] : memref<9xi32>
  memref.store %mbig, %r[%c3] : memref<9xi32>
  memref.store %big, %r[%i4] : memref<9xi32>
  memref.store %m1, %r[%i6] : memref<9xi32>
  memref.store %m1, %r[%i7] : memref<9xi32>
  %d0 = memref.alloc(%c3) : memref<?xi32>
  linalg.fill ins(%z : i32) outs(%d0 : memref<?xi32>)
  %w = memref.alloc() : memref<1xi64>
  linalg.fill ins(%z64 : i64) outs(%w : memref<1xi64>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %b = arith.index_cast %bx : index to i32
    %k3 = arith.constant 3 : i32
    %k50 = arith.constant 50 : i32
    %k1 = arith.constant 1 : i32
    %k8 = arith.constant 8 : i32
    %k20 = arith.constant 20 : i32
    %km1 = arith.constant -1 : i32
    %t3 = arith.muli %t, %k3 : i32
    %t3b = arith.addi %t3, %b : i32
    %v = arith.subi %t3b, %k50 : i32
    %q0 = arith.constant 0 : index
    %q1 = arith.constant 1 : index
    %q2 = arith.constant 2 : index
    %q3 = arith.constant 3 : index
    %q4 = arith.constant 4 : index
    %q5 = arith.constant 5 : index
    %q6 = arith.constant 6 : index
    %q7 = arith.constant 7 : index
    %q8 = arith.constant 8 : index
    %g0 = memref.generic_atomic_rmw %r[%q0] : memref<9xi32> {
    ^bb0(%old: i32):
      %n = arith.addi %old, %t : i32
      memref.atomic_yield %n : i32
    }
    %g1 = memref.generic_atomic_rmw %r[%q1] : memref<9xi32> {
    ^bb0(%old: i32):
      %n = arith.maxsi %old, %v : i32
      memref.atomic_yield %n : i32
    }
    %a2 = memref.atomic_rmw addi %v, %r[%q2] : (i32, memref<9xi32>) -> i32
    %a3 = memref.atomic_rmw maxs %v, %r[%q3] : (i32, memref<9xi32>) -> i32
    %a4 = memref.atomic_rmw mins %v, %r[%q4] : (i32, memref<9xi32>) -> i32
    %a5 = memref.atomic_rmw maxu %v, %r[%q5] : (i32, memref<9xi32>) -> i32
    %a6 = memref.atomic_rmw minu %v, %r[%q6] : (i32, memref<9xi32>) -> i32
    %s8 = arith.remui %t, %k8 : i32
    %bit8 = arith.shli %k1, %s8 : i32
    %nbit = arith.xori %bit8, %km1 : i32
    %a7 = memref.atomic_rmw andi %nbit, %r[%q7] : (i32, memref<9xi32>) -> i32
    %s20 = arith.remui %t, %k20 : i32
    %bit20 = arith.shli %k1, %s20 : i32
    %a8 = memref.atomic_rmw ori %bit20, %r[%q8] : (i32, memref<9xi32>) -> i32
    %n3 = memref.dim %d0, %q0 : memref<?xi32>
    scf.for %j = %q0 to %n3 step %q1 {
      %gd = memref.generic_atomic_rmw %d0[%j] : memref<?xi32> {
      ^bb0(%old: i32):
        %n = arith.addi %old, %k1 : i32
        memref.atomic_yield %n : i32
      }
    }
    %k40 = arith.constant 40 : index
    %lt40 = arith.cmpi ult, %tx, %k40 : index
    %blk0 = arith.cmpi eq, %bx, %q0 : index
    %doit = arith.andi %lt40, %blk0 : i1
    scf.if %doit {
      %g64 = memref.generic_atomic_rmw %w[%q0] : memref<1xi64> {
      ^bb0(%old: i64):
        %one = arith.constant 1 : i64
        %two = arith.constant 2 : i64
        %d = arith.muli %old, %two : i64
        %n = arith.addi %d, %one : i64
        memref.atomic_yield %n : i64
      }
    }
    gpu.terminator
  }
  %p = memref.cast %r : memref<9xi32> to memref<*xi32>
  call @printMemrefI32(%p) : (memref<*xi32>) -> ()
  %pd = memref.cast %d0 : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%pd) : (memref<*xi32>) -> ()
  %pw = memref.cast %w : memref<1xi64> to memref<*xi64>
  call @printMemrefI64(%pw) : (memref<*xi64>) -> ()
  return
}
