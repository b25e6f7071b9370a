// kiln-cuda-suite: vulkan only (maxStorageBufferRange and address variants)
// kiln-spirv-cpu-suite: vulkan only (the same)
// A 160 MB memref<?xi32>, above the 128 MiB maxStorageBufferRange of many
// devices (lavapipe's included), whose size only the launch knows: under the
// default --buffer-device-address=auto the kernel has an address variant,
// which the runtime launches for this buffer, so it runs unchanged; a
// 1000-element buffer runs the descriptor-bound kernel. Compiled with
// =never it is refused at launch, naming the limit and the way out.
// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe && %t.exe | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan=target-env=lavapipe | %mlir_runner -e main --entry-point-result=void -O0 --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: not kiln-vulkan-runner %s --validate --buffer-device-address=never 2>&1 | FileCheck %s --check-prefix=NEVER

// CHECK: data =
// CHECK-NEXT: [1000,  1001,  1002,  1003]
// CHECK: data =
// CHECK-NEXT: [20000000,  20000001,  20000002,  20000003]
// CHECK: data =
// CHECK-NEXT: [39999996,  39999997,  39999998,  39999999]
// CHECK-NEXT: untouched 0
// CHECK: data =
// CHECK-NEXT: [0,  1,  2,  3]
// CHECK: data =
// CHECK-NEXT: [996,  997,  998,  999]

// NEVER: kernel '{{.*}}' argument at binding 0 spans 160000000 bytes, above device '{{.*}}''s limit of {{[0-9]+}} (maxStorageBufferRange) for a storage-buffer descriptor; compile with --buffer-device-address=always to bind it by address instead

func.func private @printMemrefI32(memref<*xi32>)

// Each block of 64 writes its slice: at the start, in the middle and at the
// very end of the buffer (in a small one: at its start and end).
func.func @fill(%buf: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %buf, %c0 : memref<?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %s0 = arith.constant 1000 : index
    %s1 = arith.constant 20000000 : index
    %s2 = arith.subi %n, %c64 : index
    %is0 = arith.cmpi eq, %bx, %c0 : index
    %is1 = arith.cmpi eq, %bx, %c1 : index
    %a = arith.select %is1, %s1, %s2 : index
    %big = arith.cmpi sgt, %n, %s1 : index
    %first = arith.select %big, %s0, %c0 : index
    %start = arith.select %is0, %first, %a : index
    %i = arith.addi %start, %tx : index
    %in = arith.cmpi slt, %i, %n : index
    scf.if %in {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %buf[%i] : memref<?xi32>
    }
    gpu.terminator
  }
  return
}

func.func @main() {
  %n = arith.constant 40000000 : index
  %buf = memref.alloc(%n) : memref<?xi32>
  // Only what the kernel does not write is checked for zero: one element.
  %zero = arith.constant 0 : i32
  %probe = arith.constant 30000000 : index
  memref.store %zero, %buf[%probe] : memref<?xi32>
  call @fill(%buf) : (memref<?xi32>) -> ()
  %first = memref.subview %buf[1000] [4] [1] : memref<?xi32> to memref<4xi32, strided<[1], offset: 1000>>
  %mid = memref.subview %buf[20000000] [4] [1] : memref<?xi32> to memref<4xi32, strided<[1], offset: 20000000>>
  %last = memref.subview %buf[39999996] [4] [1] : memref<?xi32> to memref<4xi32, strided<[1], offset: 39999996>>
  %u0 = memref.cast %first : memref<4xi32, strided<[1], offset: 1000>> to memref<*xi32>
  %u1 = memref.cast %mid : memref<4xi32, strided<[1], offset: 20000000>> to memref<*xi32>
  %u2 = memref.cast %last : memref<4xi32, strided<[1], offset: 39999996>> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  %p = memref.load %buf[%probe] : memref<?xi32>
  vector.print str "untouched "
  vector.print %p : i32
  memref.dealloc %buf : memref<?xi32>

  // A small buffer: the kernel bound by descriptor (blocks 0 and 2 write
  // its first and last elements).
  %m = arith.constant 1000 : index
  %small = memref.alloc(%m) : memref<?xi32>
  call @fill(%small) : (memref<?xi32>) -> ()
  %s0 = memref.subview %small[0] [4] [1] : memref<?xi32> to memref<4xi32, strided<[1]>>
  %s1 = memref.subview %small[996] [4] [1] : memref<?xi32> to memref<4xi32, strided<[1], offset: 996>>
  %v0 = memref.cast %s0 : memref<4xi32, strided<[1]>> to memref<*xi32>
  %v1 = memref.cast %s1 : memref<4xi32, strided<[1], offset: 996>> to memref<*xi32>
  call @printMemrefI32(%v0) : (memref<*xi32>) -> ()
  call @printMemrefI32(%v1) : (memref<*xi32>) -> ()
  memref.dealloc %small : memref<?xi32>
  return
}
