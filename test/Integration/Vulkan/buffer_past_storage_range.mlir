// kiln-cuda-suite: vulkan only (maxStorageBufferRange and its refusals)
// kiln-spirv-cpu-suite: vulkan only (the same)
// A 160 MB buffer, above the 128 MiB maxStorageBufferRange of many devices
// (lavapipe's included): under the default --buffer-device-address=auto the
// kernel binds it by device address (PhysicalStorageBuffer64), so it runs;
// bound as a descriptor (=never) the runtime refuses it, naming the limit.
// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe && %t.exe | FileCheck %s
// RUN: not kiln-vulkan-runner %s --validate --buffer-device-address=never 2>&1 | FileCheck %s --check-prefix=NEVER
// On a device without bufferDeviceAddress: compiled for it, a warning at
// compile time and the located refusal at launch; compiled for a richer
// target env, a refusal at load naming the capability.
// RUN: env KILN_VULKAN_HIDE_FEATURES=bufferDeviceAddress not kiln-vulkan-runner %s 2>&1 | FileCheck %s --check-prefix=NO-BDA
// RUN: env KILN_VULKAN_HIDE_FEATURES=bufferDeviceAddress not kiln-vulkan-runner %s --target-env=desktop 2>&1 | FileCheck %s --check-prefix=HIDDEN

// Each block of 64 writes one slice: at the start, in the middle and at the
// very end of the buffer, 160 MB past its start.
// CHECK: data =
// CHECK-NEXT: [1000,  1001,  1002,  1003]
// CHECK: data =
// CHECK-NEXT: [20000000,  20000001,  20000002,  20000003]
// CHECK: data =
// CHECK-NEXT: [39999996,  39999997,  39999998,  39999999]
// CHECK-NEXT: untouched 0

// NEVER: kernel '{{.*}}' argument at binding 0 spans 160000000 bytes, above device '{{.*}}''s limit of {{[0-9]+}} (maxStorageBufferRange) for a storage-buffer descriptor; compile with --buffer-device-address=always to bind it by address instead

// NO-BDA: buffer_past_storage_range.mlir:[[@LINE+17]]:3: warning: kernel 'main_kernel' argument 0 holds 160000000 bytes, above the 128 MiB every Vulkan device binds as a storage buffer, and the target env lacks capability PhysicalStorageBufferAddresses
// NO-BDA: kernel 'main_kernel' argument at binding 0 spans 160000000 bytes, above device '{{.*}}''s limit of {{[0-9]+}} (maxStorageBufferRange) for a storage-buffer descriptor; the device has no bufferDeviceAddress to bind it by address instead

// HIDDEN: it needs capability PhysicalStorageBufferAddresses (Vulkan feature bufferDeviceAddress), which device '{{.*}}' does not offer

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<40000000xi32>
  // Only what the kernel does not write is checked for zero: one element.
  %zero = arith.constant 0 : i32
  %probe = arith.constant 30000000 : index
  memref.store %zero, %buf[%probe] : memref<40000000xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    // Block 0 writes from 1000, block 1 from 20000000, block 2 the last 64.
    %s0 = arith.constant 1000 : index
    %s1 = arith.constant 20000000 : index
    %s2 = arith.constant 39999936 : index
    %is0 = arith.cmpi eq, %bx, %c0 : index
    %is1 = arith.cmpi eq, %bx, %c1 : index
    %a = arith.select %is1, %s1, %s2 : index
    %start = arith.select %is0, %s0, %a : index
    %i = arith.addi %start, %tx : index
    %ii = arith.index_cast %i : index to i32
    memref.store %ii, %buf[%i] : memref<40000000xi32>
    gpu.terminator
  }
  %first = memref.subview %buf[1000] [4] [1] : memref<40000000xi32> to memref<4xi32, strided<[1], offset: 1000>>
  %mid = memref.subview %buf[20000000] [4] [1] : memref<40000000xi32> to memref<4xi32, strided<[1], offset: 20000000>>
  %last = memref.subview %buf[39999996] [4] [1] : memref<40000000xi32> to memref<4xi32, strided<[1], offset: 39999996>>
  %u0 = memref.cast %first : memref<4xi32, strided<[1], offset: 1000>> to memref<*xi32>
  %u1 = memref.cast %mid : memref<4xi32, strided<[1], offset: 20000000>> to memref<*xi32>
  %u2 = memref.cast %last : memref<4xi32, strided<[1], offset: 39999996>> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  %p = memref.load %buf[%probe] : memref<40000000xi32>
  vector.print str "untouched "
  vector.print %p : i32
  memref.dealloc %buf : memref<40000000xi32>
  return
}
