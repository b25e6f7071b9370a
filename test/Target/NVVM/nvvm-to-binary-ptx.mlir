// RUN: kiln-opt %s --kiln-gpu-to-nvvm="format=ptx" | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-nvvm="format=ptx chip=sm_80 features=+ptx81" | FileCheck %s --check-prefix=SM80

// One gpu.binary per GPU module, holding PTX for the target's chip and PTX
// version; the kernel takes the expanded memref descriptor.
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">, properties = {{.*}}, assembly = "{{.*}}.version 7.8\0A.target sm_90\0A.address_size 64
// CHECK-SAME: .visible .entry scale(\0A\09.param .u64 {{.*}}scale_param_0,\0A\09.param .u64 {{.*}}scale_param_1,\0A\09.param .u64 {{.*}}scale_param_2,\0A\09.param .u64 {{.*}}scale_param_3,\0A\09.param .u64 {{.*}}scale_param_4,\0A\09.param .f32 {{.*}}scale_param_5
// CHECK-NOT: gpu.module
// SM80: assembly = "{{.*}}.version 8.1\0A.target sm_80\0A
gpu.module @kernels {
  gpu.func @scale(%buf: memref<?xf32>, %k: f32) kernel {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<?xf32>
    %s = arith.mulf %v, %k : f32
    memref.store %s, %buf[%i] : memref<?xf32>
    gpu.return
  }
}
