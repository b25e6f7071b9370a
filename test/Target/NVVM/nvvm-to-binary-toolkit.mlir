// REQUIRES: cuda-toolkit
// With the toolkit's ptxas: cubin for the chip, fatbin by default, and
// libdevice linked into the PTX.
// RUN: kiln-opt %S/Inputs/exp-kernel.mlir --kiln-gpu-to-nvvm="format=cubin" | FileCheck %s --check-prefix=CUBIN
// RUN: kiln-opt %S/Inputs/exp-kernel.mlir --kiln-gpu-to-nvvm="format=cubin chip=sm_80" | FileCheck %s --check-prefix=CUBIN80
// RUN: kiln-opt %S/Inputs/exp-kernel.mlir --kiln-gpu-to-nvvm | FileCheck %s --check-prefix=FATBIN
// RUN: kiln-opt %S/Inputs/exp-kernel.mlir --kiln-gpu-to-nvvm="format=ptx" | FileCheck %s --check-prefix=PTX

// CUBIN: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">, properties = {{.*}}, bin = "\7FELF
// CUBIN80: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">, properties = {{.*}}, bin = "\7FELF
// FATBIN: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">, properties = {{.*}}, "P\EDU\BA
// PTX: assembly = "
// PTX-NOT: .extern .func {{.*}}__nv_expf
// PTX-SAME: ex2.approx
