// kiln-cuda-suite: vulkan only (the refusals are the Vulkan runtime's; test/Ops checks addf on CUDA)
// kiln-spirv-cpu-suite: vulkan only (the same; the spirv-cpu runner runs it below)
// kiln-bundle capability=AtomicFloat32AddEXT
// memref.atomic_rmw addf on a storage buffer and on workgroup memory
// (OpAtomicFAddEXT, VK_EXT_shader_atomic_float), through the runner with the
// device's target env, the lavapipe profile, an executable and spirv-cpu.
// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-vulkan-runner %s --target-env=lavapipe | FileCheck %s
// RUN: kiln-compile %s --target-env=lavapipe --emit=exe -o %t.exe && %t.exe | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s
// A device without the feature: the device env leaves the capability out,
// so the compiler refuses the op; a module compiled for lavapipe is stopped
// by the runtime before the driver sees it.
// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderSharedFloat32AtomicAdd kiln-vulkan-runner %s 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderBufferFloat32AtomicAdd %t.exe 2>&1 | FileCheck %s --check-prefix=LOAD
// DEVICE: atomic_float_add.mlir:[[@LINE+31]]:10: error: 'memref.atomic_rmw' cannot be lowered to SPIR-V for this target env (SPIR-V v1.{{[0-9]}}): it needs capability AtomicFloat32AddEXT, extension SPV_EXT_shader_atomic_float_add
// LOAD: cannot load GPU module with kernel 'main_kernel': it needs capability AtomicFloat32AddEXT (Vulkan feature shaderBufferFloat32AtomicAdd), which device '{{.*}}' does not offer

// 4 workgroups of 64 invocations each add 0.25 * (t % 4) + 1.5 to buf[0]
// (256 additions: 64 * (0 + 0.25 + 0.5 + 0.75) + 384 = 480, exact in f32 in
// any order) and, through a workgroup-memory sum that starts at 0, add their
// workgroup's total (4 * 120) to buf[1]. Each invocation also keeps the value
// it saw: the old values of buf[2]'s additions of 1.0 are 0 .. 255, once each,
// so their sum is 32640.
// CHECK: [480, 480, 256, 32640]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  %old = memref.alloc() : memref<256xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<4xf32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%sum : memref<1xf32, #gpu.address_space<workgroup>>) {
    %q = arith.constant 0.25 : f32
    %base = arith.constant 1.5 : f32
    %m = arith.remui %tx, %c4 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %v = arith.mulf %mf, %q : f32
    %w = arith.addf %v, %base : f32
    %a = memref.atomic_rmw addf %w, %buf[%c0] : (f32, memref<4xf32>) -> f32
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %zero, %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %s = memref.atomic_rmw addf %w, %sum[%c0] : (f32, memref<1xf32, #gpu.address_space<workgroup>>) -> f32
    gpu.barrier
    scf.if %first {
      %total = memref.load %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      %b = memref.atomic_rmw addf %total, %buf[%c1] : (f32, memref<4xf32>) -> f32
    }
    %one = arith.constant 1.0 : f32
    %seen = memref.atomic_rmw addf %one, %buf[%c2] : (f32, memref<4xf32>) -> f32
    %bs = arith.muli %bx, %c64 : index
    %g = arith.addi %bs, %tx : index
    memref.store %seen, %old[%g] : memref<256xf32>
    gpu.terminator
  }
  // buf[3] = the sum of the old values, on the host.
  %total = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> f32 {
      %row = arith.muli %j, %c64 : index
      %k = arith.addi %row, %i : index
      %x = memref.load %old[%k] : memref<256xf32>
      %n = arith.addf %acc2, %x : f32
      scf.yield %n : f32
    }
    scf.yield %r : f32
  }
  memref.store %total, %buf[%c3] : memref<4xf32>
  %u = memref.cast %buf : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %buf : memref<4xf32>
  memref.dealloc %old : memref<256xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
