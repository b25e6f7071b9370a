// Bounded accesses, the spirv-cpu default (as Vulkan's robustBufferAccess2):
// a store out of its buffer's or workgroup variable's bounds is dropped, a
// load reads zeros, an atomic changes nothing and returns 0; memory next to
// the buffer (the allocation before and after) is untouched. The same
// program, its kernel bodies unchanged, through the runner, an executable
// and --unbounded-access (which --checked excludes).
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s
// RUN: kiln-compile %s --target=spirv-cpu --emit=exe -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-spirv-cpu | FileCheck %s --check-prefix=IR
// RUN: kiln-opt %s --kiln-gpu-to-spirv-cpu=unbounded-access=true | FileCheck %s --check-prefix=UNBOUNDED
// RUN: not kiln-spirv-cpu-runner %s --unbounded-access --checked 2>&1 | FileCheck %s --check-prefix=BOTH

// Stores at out[-8 .. 55]: only out[0 .. 3] hold 123; the neighbours keep 5.
// CHECK: before:
// CHECK-NEXT: [5,  5,  5,  5]
// CHECK: out:
// CHECK-NEXT: [123,  123,  123,  123]
// CHECK: after:
// CHECK-NEXT: [5,  5,  5,  5]
// Loads of src[tid + 2]: 3, 4, then zeros.
// CHECK: loads:
// CHECK-NEXT: [3,  4,  0,  0]
// Atomic adds at out[tid + 2]: two happen, two return 0.
// CHECK: old:
// CHECK-NEXT: [123,  123,  0,  0]
// CHECK: out:
// CHECK-NEXT: [123,  123,  124,  124]
// Workgroup stores at a[0 .. 7] of a 4-element array leave b alone.
// CHECK: workgroup:
// CHECK-NEXT: [0,  1,  2,  3,  9,  9,  9,  9]

// IR: llvm.icmp "uge"
// IR: llvm.icmp "ule"
// IR: llvm.select
// UNBOUNDED-NOT: llvm.icmp "uge"
// BOTH: error: --unbounded-access and --checked exclude each other

func.func private @printMemrefI32(memref<*xi32>)

func.func @print(%m: memref<?xi32>) {
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %five = arith.constant 5 : i32
  // Three allocations in a row: the kernel gets the middle one.
  %before = memref.alloc() : memref<4xi32>
  %out = memref.alloc() : memref<4xi32>
  %after = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %five, %before[%i] : memref<4xi32>
    memref.store %five, %after[%i] : memref<4xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.subi %tx, %c8 : index
    %v = arith.constant 123 : i32
    memref.store %v, %out[%i] : memref<4xi32>
    gpu.terminator
  }
  %b = memref.cast %before : memref<4xi32> to memref<?xi32>
  %o = memref.cast %out : memref<4xi32> to memref<?xi32>
  %a = memref.cast %after : memref<4xi32> to memref<?xi32>
  vector.print str "before: "
  call @print(%b) : (memref<?xi32>) -> ()
  vector.print str "out: "
  call @print(%o) : (memref<?xi32>) -> ()
  vector.print str "after: "
  call @print(%a) : (memref<?xi32>) -> ()

  // Loads past the end read zeros.
  %src = memref.alloc() : memref<4xi32>
  %loads = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %one = arith.constant 1 : i32
    %v = arith.addi %ii, %one : i32
    memref.store %v, %src[%i] : memref<4xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %j = arith.addi %tx, %c2 : index
    %v = memref.load %src[%j] : memref<4xi32>
    memref.store %v, %loads[%tx] : memref<4xi32>
    gpu.terminator
  }
  %l = memref.cast %loads : memref<4xi32> to memref<?xi32>
  vector.print str "loads: "
  call @print(%l) : (memref<?xi32>) -> ()

  // Atomics past the end change nothing and return 0.
  %old = memref.alloc() : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %j = arith.addi %tx, %c2 : index
    %one = arith.constant 1 : i32
    %r = memref.atomic_rmw addi %one, %out[%j] : (i32, memref<4xi32>) -> i32
    memref.store %r, %old[%tx] : memref<4xi32>
    gpu.terminator
  }
  %od = memref.cast %old : memref<4xi32> to memref<?xi32>
  vector.print str "old: "
  call @print(%od) : (memref<?xi32>) -> ()
  vector.print str "out: "
  call @print(%o) : (memref<?xi32>) -> ()

  // Workgroup memory: a[4 .. 7] are out of a's bounds, not b's.
  %wg = memref.alloc() : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
             workgroup(%wa : memref<4xi32, #gpu.address_space<workgroup>>,
                       %wb : memref<4xi32, #gpu.address_space<workgroup>>) {
    %nine = arith.constant 9 : i32
    %lt = arith.cmpi ult, %tx, %c4 : index
    scf.if %lt {
      memref.store %nine, %wb[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %wa[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.if %lt {
      %x = memref.load %wa[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %x, %wg[%tx] : memref<8xi32>
      %y = memref.load %wb[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
      %k = arith.addi %tx, %c4 : index
      memref.store %y, %wg[%k] : memref<8xi32>
    }
    gpu.terminator
  }
  %w = memref.cast %wg : memref<8xi32> to memref<?xi32>
  vector.print str "workgroup: "
  call @print(%w) : (memref<?xi32>) -> ()
  return
}
