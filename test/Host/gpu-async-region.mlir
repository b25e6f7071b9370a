// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-gpu-async-region))' | FileCheck %s

// The program's own async launches on two devices, waited for together:
// gpu-async-region's wait before gpu.set_default_device would finish the
// launch on device 0 before the one on device 1 starts; it is dropped.
// CHECK-LABEL: func.func @two_devices
// CHECK: %[[T0:.*]] = gpu.launch_func async
// CHECK-NEXT: gpu.set_default_device
// CHECK-NEXT: %[[S1:.*]] = gpu.wait async
// CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[S1]]]
// CHECK-NEXT: gpu.wait [%[[T0]], %[[T1]]]
// CHECK-NOT: gpu.wait [
// CHECK: return

// Synchronous launches made async by gpu-async-region: the wait before
// gpu.set_default_device stays (the launch on device 1 starts after the one
// on device 0 ended, as the program wrote it, and on a stream of device 1).
// CHECK-LABEL: func.func @sync_launches
// CHECK: gpu.launch_func async
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: gpu.set_default_device
// CHECK-NEXT: gpu.wait async
// CHECK-NEXT: gpu.launch_func async
// CHECK-NEXT: gpu.wait [

// A wait that orders the host's use of memory stays even for the program's
// own tokens; the program's own later wait on that token then goes (its
// stream ended).
// CHECK-LABEL: func.func @host_reads_between
// CHECK: %[[T:.*]] = gpu.launch_func async
// CHECK-NEXT: gpu.wait [%[[T]]]
// CHECK-NEXT: memref.load
// CHECK-NEXT: return

// A token waited twice, and used after its wait: its stream ended at the
// first wait, so the second wait leaves it out (and goes) and the launch
// gets a fresh stream.
// CHECK-LABEL: func.func @waited_twice
// CHECK: %[[T:.*]] = gpu.launch_func async
// CHECK-NEXT: gpu.wait [%[[T]]]
// CHECK-NEXT: memref.load
// CHECK-NEXT: %[[FRESH:.*]] = gpu.wait async
// CHECK-NEXT: %[[U:.*]] = gpu.launch_func async [%[[FRESH]]]
// CHECK-NEXT: gpu.wait [%[[U]]]
// CHECK-NEXT: return
// CHECK-NOT: kiln_user

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<8xf32>) kernel { gpu.return }
  }

  func.func @two_devices(%x: memref<8xf32>, %y: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %d0 = arith.constant 0 : i32
    %d1 = arith.constant 1 : i32
    gpu.set_default_device %d0
    %s0 = gpu.wait async
    %t0 = gpu.launch_func async [%s0] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<8xf32>)
    gpu.set_default_device %d1
    %s1 = gpu.wait async
    %t1 = gpu.launch_func async [%s1] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<8xf32>)
    gpu.wait [%t0, %t1]
    return
  }

  func.func @sync_launches(%x: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %d1 = arith.constant 1 : i32
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<8xf32>)
    gpu.set_default_device %d1
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<8xf32>)
    return
  }

  func.func @host_reads_between(%x: memref<8xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = gpu.wait async
    %t = gpu.launch_func async [%s] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<8xf32>)
    %v = memref.load %x[%c0] : memref<8xf32>
    gpu.wait [%t]
    return %v : f32
  }

  func.func @waited_twice(%x: memref<8xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = gpu.wait async
    %t = gpu.launch_func async [%s] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<8xf32>)
    gpu.wait [%t]
    %v = memref.load %x[%c0] : memref<8xf32>
    %u = gpu.launch_func async [%t] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<8xf32>)
    gpu.wait [%u, %t]
    return %v : f32
  }
}
