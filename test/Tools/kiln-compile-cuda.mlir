// kiln-compile --target=cuda: PTX files per GPU module, the lowered MLIR,
// host LLVM IR, and its errors.
// RUN: rm -rf %t && kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=ptx -o %t
// RUN: FileCheck %s --check-prefix=PTX < %t/kernels.ptx
// PTX: .version 7.8
// PTX-NEXT: .target sm_90
// PTX: .visible .entry scale(
// RUN: rm -rf %t && kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=ptx --chip=sm_86 --features=+ptx80 -o %t
// RUN: FileCheck %s --check-prefix=PTX86 < %t/kernels.ptx
// PTX86: .version 8.0
// PTX86-NEXT: .target sm_86

// RUN: kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=mlir --format=ptx | FileCheck %s --check-prefix=MLIR
// MLIR: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">, properties = {{.*}}, assembly = "
// MLIR-NOT: gpu.module

// Host memory passed to the kernel is registered around the launch.
// RUN: kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=llvm --format=ptx -O0 > %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: FileCheck %s --check-prefix=LOAD < %t.ll
// LOAD: call ptr @mgpuModuleLoadJIT(ptr @kernels_binary, i32 3)
// LLVM: call void @mgpuMemHostRegisterMemRef(
// LLVM: call void @mgpuLaunchKernel(
// LLVM: call void @mgpuStreamSynchronize(
// LLVM: call void @mgpuMemHostUnregisterMemRef(

// RUN: not kiln-compile %s --target=cuda --emit=spirv 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: kiln-compile: error: unknown --emit='spirv' for --target=cuda; supported: mlir, ptx, cubin, llvm, obj, exe
// RUN: not kiln-compile %s --target=vulkan --emit=ptx 2>&1 | FileCheck %s --check-prefix=EMITV
// EMITV: unknown --emit='ptx' for --target=vulkan; supported: mlir, spirv, container, llvm, obj, exe
// RUN: not kiln-compile %s --target=cuda --chip=sm_91 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: kiln-compile: error: unknown NVIDIA chip 'sm_91' (known: sm_20,
// RUN: not kiln-compile %s --target=cuda --chip=sm_90 --features=+ptx70 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: kiln-compile: error: chip 'sm_90' needs PTX 7.8 or newer, but the target asks for PTX 7.0 (features '+ptx70'); use features "+ptx78" or newer
// RUN: not kiln-compile %s --target=cuda --emit=obj --format=elf 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: kiln-compile: error: unknown --format='elf'; supported: ptx, cubin, fatbin
// RUN: not kiln-compile %s --target=metal 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: kiln-compile: error: unknown --target='metal'; supported: vulkan, cuda

// cubin files need ptxas: no silent PTX, and nothing written.
// RUN: rm -rf %t.cubin && not env -u CUDA_PATH PATH=%t.nowhere KILN_CUDA_PREFIXES=%t.nowhere kiln-compile %S/../Integration/CUDA/Inputs/scale.mlir --target=cuda --emit=cubin -o %t.cubin 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not ls %t.cubin
// NOPTXAS: kiln-compile: error: --emit=cubin needs the CUDA toolkit's ptxas; none found (looked in PATH, {{.*}}.nowhere); use --emit=ptx or --cuda-path
