// Dynamic shared memory above the device's workgroup memory is refused at
// the launch, naming the kernel, the sizes and the limit; so is a launch
// with dynamic shared memory of a kernel that has none.
// RUN: not kiln-vulkan-runner %S/../Vulkan/dynamic_shared_memory.mlir -e too_big 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: kiln-compile %S/../Vulkan/dynamic_shared_memory.mlir -e too_big --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not kiln-spirv-cpu-runner %S/../Vulkan/dynamic_shared_memory.mlir -e too_big 2>&1 | FileCheck %s --check-prefix=BIG-CPU
// RUN: not kiln-vulkan-runner %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not kiln-spirv-cpu-runner %s 2>&1 | FileCheck %s --check-prefix=NONE
// BIG: kernel 'too_big_kernel' launched with 1048576 bytes of dynamic shared memory; with its 0 bytes of static workgroup memory that is 1048576 bytes, above device '{{.*}}''s limit of {{[0-9]+}} (maxComputeSharedMemorySize)
// BIG-CPU: kernel 'too_big_kernel' launched with 1048576 bytes of dynamic shared memory; with its 0 bytes of static workgroup memory that is above the spirv-cpu target's limit of 65536
// NONE: kernel 'main_kernel' launched with 64 bytes of dynamic shared memory, but it has none (no gpu.dynamic_shared_memory)

func.func @main() {
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 64 : i32
  %out = memref.alloc() : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %zero = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[%zero] : memref<1xf32>
    gpu.terminator
  }
  memref.dealloc %out : memref<1xf32>
  return
}
