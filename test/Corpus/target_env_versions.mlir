// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.v11.spv
// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.2 -o %t.v12.spv
// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.3 -o %t.v13.spv
// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.lvp.spv
// RUN: spirv-val --target-env vulkan1.1 %t.v11.spv
// RUN: spirv-val --target-env vulkan1.2 %t.v12.spv
// RUN: spirv-val --target-env vulkan1.3 %t.v13.spv
// RUN: spirv-val --target-env vulkan1.3 %t.lvp.spv
// RUN: spirv-dis %t.v11.spv | FileCheck %s --check-prefixes=CHECK,SPV13
// RUN: spirv-dis %t.v12.spv | FileCheck %s --check-prefixes=CHECK,SPV14PLUS -DVER=1.5
// RUN: spirv-dis %t.v13.spv | FileCheck %s --check-prefixes=CHECK,SPV14PLUS -DVER=1.6
// RUN: spirv-dis %t.lvp.spv | FileCheck %s --check-prefixes=CHECK,SPV14PLUS -DVER=1.6
// A copy kernel for every profile: the module declares the profile's SPIR-V version; from 1.4 buffers join the interface.

// SPV13: ; Version: 1.3
// SPV14PLUS: ; Version: [[VER]]
// SPV13: OpEntryPoint GLCompute %copy_kernel "copy_kernel" %__builtin__WorkgroupId__ %__builtin__LocalInvocationId__{{$}}
// SPV14PLUS: OpEntryPoint GLCompute %copy_kernel "copy_kernel" %copy_kernel_arg_0 %copy_kernel_arg_1 %__builtin__WorkgroupId__ %__builtin__LocalInvocationId__{{$}}
// CHECK: OpExecutionMode %copy_kernel LocalSize 64 1 1

func.func @copy(%src: memref<4096xf32>, %dst: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %src[%i] : memref<4096xf32>
    memref.store %v, %dst[%i] : memref<4096xf32>
    gpu.terminator
  }
  return
}
