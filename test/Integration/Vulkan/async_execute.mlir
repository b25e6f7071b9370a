// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | %mlir_runner - -e main --entry-point-result=void -O0 --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_async_runtime.so | FileCheck %s
// Host code with async.execute: kernels launched from async regions, a
// region that returns a value, a region after two tokens, and a group of
// three chained regions awaited together. The JIT runners use
// libmlir_async_runtime; executables (the AOT suite) Kiln's own.

// c = 1 * 2 * 3 * 2; the value b[1] = 3; a = i * 2 * 2; b = i * 3.
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12]
// CHECK-NEXT: 3
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45]

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
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %a[%i] : memref<16xf32>
    memref.store %f, %b[%i] : memref<16xf32>
  }
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %t0 = async.execute {
    func.call @scale(%a, %two) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  %t1, %v1 = async.execute -> !async.value<f32> {
    func.call @scale(%b, %three) : (memref<16xf32>, f32) -> ()
    %x = memref.load %b[%c1] : memref<16xf32>
    async.yield %x : f32
  }
  %t2 = async.execute [%t0, %t1] {
    func.call @scale(%a, %two) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  async.await %t2 : !async.token
  %x = async.await %v1 : !async.value<f32>
  // A group of three launches on %c, awaited together.
  %c = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<16xf32>)
  %c3 = arith.constant 3 : index
  %group = async.create_group %c3 : !async.group
  %g0 = async.execute {
    func.call @scale(%c, %two) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  %r0 = async.add_to_group %g0, %group : !async.token
  %g1 = async.execute [%g0] {
    func.call @scale(%c, %three) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  %r1 = async.add_to_group %g1, %group : !async.token
  %g2 = async.execute [%g1] {
    func.call @scale(%c, %two) : (memref<16xf32>, f32) -> ()
    async.yield
  }
  %r2 = async.add_to_group %g2, %group : !async.token
  async.await_all %group
  %uc = memref.cast %c : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
  vector.print %x : f32
  %ua = memref.cast %a : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  %ub = memref.cast %b : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  return
}
