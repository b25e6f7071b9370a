// RUN: kiln-opt %s --kiln-register-host-memrefs | FileCheck %s

module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @two(%a: memref<16xf32>, %b: memref<16xf32>) kernel { gpu.return }
  gpu.func @one(%a: memref<8xf32, strided<[2], offset: ?>>) kernel { gpu.return }
}

// Host memory (memref.alloc, a function argument) is registered around the
// launch; gpu.alloc memory is not; an operand passed twice is registered
// once.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[ARG:.*]]: memref<16xf32>)
// CHECK: %[[HOST:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[DEV:.*]] = gpu.alloc () : memref<16xf32>
// CHECK: %[[U1:.*]] = memref.cast %[[HOST]] : memref<16xf32> to memref<*xf32>
// CHECK-NEXT: gpu.host_register %[[U1]] : memref<*xf32>
// CHECK-NEXT: gpu.launch_func @k::@two {{.*}} args(%[[HOST]] : memref<16xf32>, %[[DEV]] : memref<16xf32>)
// CHECK-NEXT: gpu.host_unregister %[[U1]] : memref<*xf32>
// CHECK: %[[U2:.*]] = memref.cast %[[ARG]] : memref<16xf32> to memref<*xf32>
// CHECK-NEXT: gpu.host_register %[[U2]]
// CHECK-NEXT: gpu.launch_func @k::@two {{.*}} args(%[[ARG]] : memref<16xf32>, %[[ARG]] : memref<16xf32>)
// CHECK-NEXT: gpu.host_unregister %[[U2]]
// CHECK-NOT: gpu.host_register
// CHECK: return
func.func @mixed(%arg: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %host = memref.alloc() : memref<16xf32>
  %dev = gpu.alloc () : memref<16xf32>
  gpu.launch_func @k::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%host : memref<16xf32>, %dev : memref<16xf32>)
  gpu.launch_func @k::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg : memref<16xf32>, %arg : memref<16xf32>)
  gpu.launch_func @k::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<16xf32>, %dev : memref<16xf32>)
  return
}

// Views are traced to their source: a subview of gpu.alloc memory needs
// nothing, a subview of host memory is registered as the view.
// CHECK-LABEL: func.func @views
// CHECK: %[[DEV:.*]] = gpu.alloc
// CHECK: %[[DV:.*]] = memref.subview %[[DEV]]
// CHECK-NOT: gpu.host_register
// CHECK: gpu.launch_func @k::@one {{.*}} args(%[[DV]]
// CHECK: %[[HV:.*]] = memref.subview
// CHECK: %[[U:.*]] = memref.cast %[[HV]] : memref<8xf32, strided<[2], offset: ?>> to memref<*xf32>
// CHECK-NEXT: gpu.host_register %[[U]]
// CHECK-NEXT: gpu.launch_func @k::@one {{.*}} args(%[[HV]]
// CHECK-NEXT: gpu.host_unregister %[[U]]
func.func @views(%o: index) {
  %c1 = arith.constant 1 : index
  %dev = gpu.alloc () : memref<32xf32>
  %dv = memref.subview %dev[%o] [8] [2] : memref<32xf32> to memref<8xf32, strided<[2], offset: ?>>
  gpu.launch_func @k::@one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dv : memref<8xf32, strided<[2], offset: ?>>)
  %host = memref.alloc() : memref<32xf32>
  %hv = memref.subview %host[%o] [8] [2] : memref<32xf32> to memref<8xf32, strided<[2], offset: ?>>
  gpu.launch_func @k::@one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%hv : memref<8xf32, strided<[2], offset: ?>>)
  return
}

// An async launch is waited for before the memory is unregistered: after
// the program's own host wait for it (directly or through the async ops
// that depend on it), or, where the block has none, a wait of its own. The
// token is waited for once: each wait on it synchronizes and destroys its
// stream.
// CHECK-LABEL: func.func @async
// CHECK: gpu.host_register
// CHECK-NEXT: %[[T:.*]] = gpu.launch_func async
// CHECK-NEXT: gpu.wait [%[[T]]]
// CHECK-NEXT: gpu.host_unregister
// CHECK-NOT: gpu.wait
// CHECK: return
func.func @async(%m: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t = gpu.launch_func async [%t0] @k::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>, %m : memref<16xf32>)
  gpu.wait [%t]
  return
}

// CHECK-LABEL: func.func @through_memcpy
// CHECK: %[[T:.*]] = gpu.launch_func async
// CHECK-NEXT: %[[C:.*]] = gpu.memcpy async [%[[T]]]
// CHECK-NEXT: gpu.wait [%[[C]]]
// CHECK-NEXT: gpu.host_unregister
// CHECK-NOT: gpu.wait
// CHECK: return
func.func @through_memcpy(%m: memref<16xf32>, %d: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t = gpu.launch_func async [%t0] @k::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>, %m : memref<16xf32>)
  %c = gpu.memcpy async [%t] %d, %d : memref<16xf32>, memref<16xf32>
  gpu.wait [%c]
  return
}

// CHECK-LABEL: func.func @no_host_wait
// CHECK: %[[T:.*]] = gpu.launch_func async
// CHECK-NEXT: gpu.wait [%[[T]]]
// CHECK-NEXT: gpu.host_unregister
func.func @no_host_wait(%m: memref<16xf32>) -> !gpu.async.token {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t = gpu.launch_func async [%t0] @k::@two blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>, %m : memref<16xf32>)
  return %t : !gpu.async.token
}
}
