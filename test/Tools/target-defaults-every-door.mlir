// Every door compiles the same program the same way when no option is
// given: kiln-compile --emit=mlir and kiln-opt's device pipelines take
// their defaults from one table (lib/Driver/Targets.cpp).
// RUN: kiln-compile %s --target=vulkan --emit=mlir -o %t.compile.vulkan.mlir
// RUN: kiln-opt %s --kiln-gpu-to-spirv -o %t.opt.vulkan.mlir
// RUN: diff %t.compile.vulkan.mlir %t.opt.vulkan.mlir
// RUN: FileCheck %s --check-prefix=VULKAN < %t.compile.vulkan.mlir
// The CUDA objects carry how long ptxas took; the rest must agree.
// RUN: kiln-compile %s --target=cuda --emit=mlir -o - | sed -E 's/properties = \{[^}]*\}, //' > %t.compile.cuda.mlir
// RUN: kiln-opt %s --kiln-gpu-to-nvvm | sed -E 's/properties = \{[^}]*\}, //' > %t.opt.cuda.mlir
// RUN: diff %t.compile.cuda.mlir %t.opt.cuda.mlir
// RUN: FileCheck %s --check-prefix=CUDA < %t.compile.cuda.mlir
// spirv-cpu: kiln-compile, its runner and --kiln-gpu-to-spirv-cpu agree on
// the spirv-cpu profile; "device" names it too.
// RUN: kiln-compile %s --target=spirv-cpu --emit=llvm -o %t.cpu.ll
// RUN: kiln-compile %s --target=spirv-cpu --target-env=device --emit=llvm -o %t.cpu.device.ll
// RUN: diff %t.cpu.ll %t.cpu.device.ll
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s --check-prefix=OUT

// The 256-thread workgroup is within the default (desktop) profile, from
// every door.
// VULKAN: gpu.binary @main_kernel
// CUDA: gpu.binary @main_kernel
// OUT: 256

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %m = memref.alloc() : memref<256xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %m[%tx] : memref<256xf32>
      gpu.terminator
    }
    %c255 = arith.constant 255 : index
    %v = memref.load %m[%c255] : memref<256xf32>
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    vector.print %r : f32
    memref.dealloc %m : memref<256xf32>
    return
  }
}
