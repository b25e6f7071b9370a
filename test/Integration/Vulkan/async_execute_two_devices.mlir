// RUN: kiln-vulkan-runner %s --validate --device=0,0 | FileCheck %s
// RUN: kiln-vulkan-runner %s --validate --device=0,0 --print-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | env KILN_VULKAN_DEVICE=0,0 KILN_VULKAN_TIMING=1 %mlir_runner - -e main --entry-point-result=void -O0 --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_async_runtime.so 2>&1 | FileCheck %s --check-prefixes=TIMING
// async.execute regions on two devices: each region sets the device it
// launches on (the current device is the worker thread's), and the two run
// on their devices.

// TIMING-DAG: kiln-timing kernel=scale_kernel gpu_us={{.*}} device=0
// TIMING-DAG: kiln-timing kernel=scale_kernel gpu_us={{.*}} device=1
// CHECK: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
// CHECK: [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]

func.func private @printMemrefF32(memref<*xf32>)
func.func @scale(%m: memref<16xf32>, %k: f32) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<16xf32>
    %w = arith.mulf %v, %k : f32
    memref.store %w, %m[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<16xf32>)
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %t0 = async.execute {
    gpu.set_default_device %d0
    func.call @scale(%a, %two) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  %t1 = async.execute {
    gpu.set_default_device %d1
    func.call @scale(%b, %three) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  async.await %t0 : !async.token
  async.await %t1 : !async.token
  %ua = memref.cast %a : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  %ub = memref.cast %b : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  return
}
