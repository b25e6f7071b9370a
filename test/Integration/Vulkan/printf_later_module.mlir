// kiln-spirv-cpu-suite: vulkan only (the CPU side: test/Integration/SPIRVCPU/printf.mlir)
// kiln-cuda-suite: vulkan only (the CUDA side: test/Integration/CUDA/printf.mlir)
// kiln-bundle sorted
// RUN: kiln-vulkan-runner %s --validate | sort | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan=target-env=desktop | %mlir_runner - -e main --entry-point-result=void -O0 --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so | sort | FileCheck %s
// RUN: KILN_VULKAN_PRINTF_BUFFER=64 not kiln-vulkan-runner %s 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: KILN_VULKAN_PRINTF_BUFFER=2048 not kiln-vulkan-runner %s --validate 2>&1 | FileCheck %s --check-prefix=LOST
// Only the second of two GPU modules prints: the runtime learns that a
// kernel prints when its module is loaded, before the program starts, and
// creates the Vulkan instance with debug printf whichever module comes
// first (through the runner, mlir-runner and an executable alike). Output
// that does not fit the layer's buffer fails the run, naming the knob.

// CHECK-COUNT-64: second kernel sees {{[0-9]+}}
// CHECK-NOT: second kernel

// SIZE: KILN_VULKAN_PRINTF_BUFFER='64' is not a size in bytes from 1024 to 2147483648

// LOST: kiln-vulkan: debug printf: WARNING - Debug Printf message was truncated, likely due to a buffer size that was too small for the message (the output buffer holds 2048 bytes per launch; raise it with KILN_VULKAN_PRINTF_BUFFER)
// LOST: the Khronos validation layer reported 1 message(s)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<64xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %buf[%tx] : memref<64xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%tx] : memref<64xi32>
    gpu.printf "second kernel sees %d\n", %v : i32
    gpu.terminator
  }
  memref.dealloc %buf : memref<64xi32>
  return
}
