// Private arrays (memref.alloca in a kernel) live on the invocation's
// stack. Stacks are sized from the frame the compiler counts: 1 MiB per
// invocation on fibers (a kernel with a barrier) and 4 MiB on a kernel
// without one used to overflow the 256 KiB fiber stacks and the worker's
// own stack (SIGSEGV, no message).
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s
// RUN: kiln-spirv-cpu-runner --checked %s | FileCheck %s

// Each of 8 invocations fills its array with t + i and reads back the
// first, a middle and the last element: t + (0 + n/2 + n - 1).
// CHECK: Unranked Memref {{.*}} sizes = [8]
// CHECK-NEXT: [393215,  393218,  393221,  393224,  393227,  393230,  393233,  393236]
// CHECK: Unranked Memref {{.*}} sizes = [2]
// CHECK-NEXT: [1572863,  1572866]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %out = gpu.alloc host_shared () : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    // 1 MiB of i32.
    %a = memref.alloca() : memref<262144xi32>
    %n = arith.constant 262144 : index
    %t = arith.index_cast %tx : index to i32
    scf.for %i = %c0 to %n step %c1 {
      %iv = arith.index_cast %i : index to i32
      %v = arith.addi %t, %iv : i32
      memref.store %v, %a[%i] : memref<262144xi32>
    }
    gpu.barrier
    %mid = arith.constant 131072 : index
    %last = arith.constant 262143 : index
    %x = memref.load %a[%c0] : memref<262144xi32>
    %y = memref.load %a[%mid] : memref<262144xi32>
    %z = memref.load %a[%last] : memref<262144xi32>
    %s0 = arith.addi %x, %y : i32
    %s = arith.addi %s0, %z : i32
    memref.store %s, %out[%tx] : memref<8xi32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()

  %out2 = gpu.alloc host_shared () : memref<2xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    // 4 MiB of i32, the most the target allows, without a barrier.
    %a = memref.alloca() : memref<1048576xi32>
    %n = arith.constant 1048576 : index
    %t = arith.index_cast %tx : index to i32
    scf.for %i = %c0 to %n step %c1 {
      %iv = arith.index_cast %i : index to i32
      %v = arith.addi %t, %iv : i32
      memref.store %v, %a[%i] : memref<1048576xi32>
    }
    %mid = arith.constant 524288 : index
    %last = arith.constant 1048575 : index
    %x = memref.load %a[%c0] : memref<1048576xi32>
    %y = memref.load %a[%mid] : memref<1048576xi32>
    %z = memref.load %a[%last] : memref<1048576xi32>
    %s0 = arith.addi %x, %y : i32
    %s = arith.addi %s0, %z : i32
    memref.store %s, %out2[%tx] : memref<2xi32>
    gpu.terminator
  }
  %u2 = memref.cast %out2 : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  return
}
