// Kernels keep NaNs, infinities and signed zeros where the device keeps
// them: on this device the minimum of -0 and +0 is -0 and of NaN and 1 is
// NaN, as on the host.
// REQUIRES: vulkan-runner
// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// CHECK: [-0, nan, 1]

// A device without the float control: the device's target env leaves the
// modes out (the kernel still runs), and a module compiled for a profile
// that has them is refused before the driver sees it, naming the mode, the
// Vulkan property and --fast-math.
// RUN: env KILN_VULKAN_HIDE_FEATURES=shaderSignedZeroInfNanPreserveFloat32 kiln-vulkan-runner --print-target-env | FileCheck %s --check-prefix=ENV
// ENV-NOT: SignedZeroInfNanPreserve
// RUN: not env KILN_VULKAN_HIDE_FEATURES=shaderSignedZeroInfNanPreserveFloat32 kiln-vulkan-runner %s --target-env=desktop 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: execution mode SignedZeroInfNanPreserve for 32-bit floats (Vulkan property shaderSignedZeroInfNanPreserveFloat32; compile with --fast-math to let the driver ignore NaNs, infinities and signed zeros)
// RUN: env KILN_VULKAN_HIDE_FEATURES=shaderSignedZeroInfNanPreserveFloat32 kiln-vulkan-runner %s --target-env=desktop --fast-math | FileCheck %s --check-prefix=FAST
// FAST: [{{-?0}}, {{.*}}, 1]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %in = memref.alloc() : memref<3x2xf32>
  %out = memref.alloc() : memref<3xf32>
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  memref.store %nz, %in[%c0, %c0] : memref<3x2xf32>
  memref.store %pz, %in[%c0, %c1] : memref<3x2xf32>
  memref.store %nan, %in[%c1, %c0] : memref<3x2xf32>
  memref.store %one, %in[%c1, %c1] : memref<3x2xf32>
  memref.store %one, %in[%c2, %c0] : memref<3x2xf32>
  memref.store %one, %in[%c2, %c1] : memref<3x2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
    %a = memref.load %in[%tx, %c0] : memref<3x2xf32>
    %b = memref.load %in[%tx, %c1] : memref<3x2xf32>
    %m = arith.minimumf %a, %b : f32
    memref.store %m, %out[%tx] : memref<3xf32>
    gpu.terminator
  }
  %p = memref.cast %out : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  return
}
