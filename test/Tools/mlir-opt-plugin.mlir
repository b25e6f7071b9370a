// Kiln's passes, pipelines and dialect in Debian's mlir-opt, from
// libKilnPlugin.so (--load-pass-plugin, --load-dialect-plugin): the Vulkan
// and CUDA pipelines, single passes, #kiln.kernel_abi written by one
// mlir-opt and read by another, and the Vulkan pipeline's output run by
// mlir-runner on Kiln's runtime.
// RUN: %mlir_opt --load-dialect-plugin=%kiln_lib_dir/libKilnPlugin.so --load-pass-plugin=%kiln_lib_dir/libKilnPlugin.so %s --pass-pipeline="builtin.module(kiln-gpu-to-spirv)" | FileCheck %s --check-prefix=SPIRV
// RUN: %mlir_opt --load-dialect-plugin=%kiln_lib_dir/libKilnPlugin.so --load-pass-plugin=%kiln_lib_dir/libKilnPlugin.so %s --pass-pipeline="builtin.module(kiln-gpu-to-nvvm{format=ptx})" | FileCheck %s --check-prefix=NVVM
// RUN: %mlir_opt --load-dialect-plugin=%kiln_lib_dir/libKilnPlugin.so --load-pass-plugin=%kiln_lib_dir/libKilnPlugin.so %s --pass-pipeline="builtin.module(gpu-kernel-outlining,kiln-attach-spirv-target-env,kiln-spirv-kernel-abi)" \
// RUN:   | %mlir_opt --load-dialect-plugin=%kiln_lib_dir/libKilnPlugin.so | FileCheck %s --check-prefix=ABI
// RUN: %mlir_opt --load-dialect-plugin=%kiln_lib_dir/libKilnPlugin.so --load-pass-plugin=%kiln_lib_dir/libKilnPlugin.so %s --pass-pipeline="builtin.module(kiln-gpu-to-vulkan)" \
// RUN:   | %mlir_runner -e main --entry-point-result=void -O0 --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=OUT
// Without the dialect plugin, mlir-opt cannot read the kiln dialect (the
// passes load it themselves).
// RUN: %mlir_opt --load-pass-plugin=%kiln_lib_dir/libKilnPlugin.so %s --pass-pipeline="builtin.module(gpu-kernel-outlining,kiln-attach-spirv-target-env,kiln-spirv-kernel-abi)" -o %t.abi.mlir
// RUN: not %mlir_opt %t.abi.mlir 2>&1 | FileCheck %s --check-prefix=NO-DIALECT

// SPIRV: gpu.binary @main_kernel [#gpu.object<#spirv.target_env
// NVVM: gpu.binary @main_kernel [#gpu.object<#nvvm.target
// ABI: gpu.func @main_kernel
// ABI-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32
// OUT: [2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2]
// NO-DIALECT: #"kiln"<"kernel_abi<{{.*}}attribute created with unregistered dialect

func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m = memref.alloc() : memref<16xf32>
  %host = memref.cast %m : memref<16xf32> to memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = arith.constant 2.0 : f32
    memref.store %v, %m[%tx] : memref<16xf32>
    gpu.terminator
  }
  call @printMemrefF32(%host) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
