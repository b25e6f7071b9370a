// kiln-spirv-cpu-suite: vulkan only (the CPU side: test/Integration/SPIRVCPU/printf.mlir)
// kiln-cuda-suite: vulkan only (the CUDA side: test/Integration/CUDA/printf.mlir)
// kiln-bundle sorted
// RUN: kiln-vulkan-runner %s --validate | sort | FileCheck %s
// RUN: KILN_VULKAN_PRINTF=0 kiln-vulkan-runner %s --validate | FileCheck %s --check-prefix=OFF --allow-empty
// gpu.printf on Vulkan: the kernel's NonSemantic.DebugPrintf instructions
// run in the validation layer's debug printf, and the runtime prints what
// they wrote on stdout, one line per invocation and call (in no fixed
// order, hence the sort). Arguments narrower than 32 bits are promoted as C
// promotes them. KILN_VULKAN_PRINTF=0 runs the
// same kernels without printing.

// CHECK: 100% done
// CHECK-NEXT: block 0 thread 0 value 0.500000
// CHECK-NEXT: block 0 thread 1 value 1.500000
// CHECK-NEXT: block 0 thread 2 value 2.500000
// CHECK-NEXT: block 0 thread 3 value 3.500000
// CHECK-NEXT: block 1 thread 0 value 4.500000
// CHECK-NEXT: block 1 thread 1 value 5.500000
// CHECK-NEXT: block 1 thread 2 value 6.500000
// CHECK-NEXT: block 1 thread 3 value 7.500000
// CHECK-NEXT: f32 0.250000 f16 1.500 e 2.500000e+00 g 3.5 | 3.14|-7.5  |
// CHECK-NEXT: i32 -3 u32 4294967293 hex ff oct 17 HEX FF
// CHECK-NEXT: i8 -5 i16 -300 i1 1 ui8 251
// OFF-NOT: {{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %half = arith.constant 0.5 : f32
  %buf = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.addf %f, %half : f32
    memref.store %v, %buf[%i] : memref<8xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c4 : index
    %i = arith.addi %base, %tx : index
    %x = memref.load %buf[%i] : memref<8xf32>
    gpu.printf "block %d thread %d value %f\n", %bx, %tx, %x : index, index, f32
    %first = arith.cmpi eq, %i, %c0 : index
    scf.if %first {
      %m3 = arith.constant -3 : i32
      %c255 = arith.constant 255 : i32
      %c15 = arith.constant 15 : i32
      gpu.printf "i32 %d u32 %u hex %x oct %o HEX %X\n", %m3, %m3, %c255, %c15, %c255 : i32, i32, i32, i32, i32
      %i8 = arith.constant -5 : i8
      %i16 = arith.constant -300 : i16
      %true = arith.constant true
      gpu.printf "i8 %d i16 %d i1 %d ui8 %hhu\n", %i8, %i16, %true, %i8 : i8, i16, i1, i8
      %quarter = arith.constant 0.25 : f32
      %h = arith.constant 1.5 : f16
      %e = arith.constant 2.5 : f32
      %g = arith.constant 3.5 : f32
      %pi = arith.constant 3.14159 : f32
      %m75 = arith.constant -7.5 : f32
      gpu.printf "f32 %f f16 %.3f e %e g %g |%5.2f|%-6.1f|\n", %quarter, %h, %e, %g, %pi, %m75 : f32, f16, f32, f32, f32, f32
      gpu.printf "100%% done\n"
    }
    gpu.terminator
  }
  memref.dealloc %buf : memref<8xf32>
  return
}
