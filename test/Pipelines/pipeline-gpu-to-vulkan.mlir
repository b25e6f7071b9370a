// RUN: kiln-opt %s --kiln-gpu-to-vulkan | FileCheck %s --check-prefix=MLIR
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | kiln-translate --mlir-to-llvmir | FileCheck %s
// --kiln-gpu-to-vulkan: the kernel becomes a gpu.binary holding Kiln's
// container, the host is in the LLVM dialect, and the launch passes each
// memref as (allocated, aligned, offset, size, stride) plus the scalar: six
// parameters. gpu.alloc / gpu.memcpy become runtime calls too, and
// llvm.emit_c_interface entry points get _mlir_ciface_ wrappers.

// MLIR-NOT: func.func
// MLIR: llvm.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32)
// MLIR: gpu.launch_func <%{{.*}} : !llvm.ptr> @scale_kernel::@scale_kernel
// MLIR: gpu.binary @scale_kernel  [#gpu.object<#spirv.target_env<{{.*}}>, properties = {format = "kiln-spirv"}, bin = "KILN
// MLIR: llvm.func @_mlir_ciface_copy_through_device(%{{.*}}: !llvm.ptr)

// CHECK: @scale_kernel_binary = internal constant [{{[0-9]+}} x i8] c"KILN
// CHECK: define void @scale(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, float %{{.*}})
// CHECK-DAG: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @scale_kernel_scale_kernel_name)
// CHECK-DAG: call ptr @mgpuStreamCreate()
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr %{{.*}}, ptr %{{.*}}, ptr null, i64 6)
// CHECK: call void @mgpuStreamSynchronize(
// CHECK: define void @copy_through_device(
// CHECK: call ptr @mgpuMemAlloc(i64 256, ptr %{{.*}}, i8 0)
// CHECK: call void @mgpuMemcpy(
// CHECK: call void @mgpuMemFree(
// CHECK: call ptr @mgpuModuleLoad(ptr @scale_kernel_binary, i64 {{[0-9]+}})

module attributes {gpu.container_module} {
  func.func @scale(%x: memref<?xf32>, %a: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %len = memref.dim %x, %c0 : memref<?xf32>
      %inside = arith.cmpi ult, %i, %len : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %r = arith.mulf %a, %xi : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }

  func.func @copy_through_device(%host: memref<64xf32>)
      attributes {llvm.emit_c_interface} {
    %dev = gpu.alloc () : memref<64xf32>
    gpu.memcpy %dev, %host : memref<64xf32>, memref<64xf32>
    gpu.memcpy %host, %dev : memref<64xf32>, memref<64xf32>
    gpu.dealloc %dev : memref<64xf32>
    return
  }
}
