// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=lavapipe -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// RUN: not kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.v11.spv 2>&1 | FileCheck %s --check-prefix=LIMIT
// 3x3 box blur over a 512x512 image with 16x16 (256-thread) blocks, in a gpu.container_module; too big for vulkan-1.1.

// CHECK: OpEntryPoint GLCompute %{{.*}} "box_blur_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 16 16 1
// CHECK: OpFunction
// CHECK: OpLogicalAnd %bool
// CHECK: OpSelectionMerge
// CHECK-COUNT-9: OpLoad %float
// CHECK: OpFMul %float %{{[0-9]+}} %float_0_111111112
// CHECK: OpStore

// LIMIT: error: block size (16, 16, 1) of kernel 'box_blur_kernel' has 256 invocations, above the target env's limit of 128 (max_compute_workgroup_invocations)

module attributes {gpu.container_module} {
  func.func @box_blur(%img: memref<512x512xf32>, %out: memref<512x512xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c32, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %k1 = arith.constant 1 : index
      %k511 = arith.constant 511 : index
      %ninth = arith.constant 0.111111112 : f32
      %x0 = arith.muli %bx, %sx : index
      %x = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %sy : index
      %y = arith.addi %y0, %ty : index
      %xlo = arith.cmpi uge, %x, %k1 : index
      %xhi = arith.cmpi ult, %x, %k511 : index
      %ylo = arith.cmpi uge, %y, %k1 : index
      %yhi = arith.cmpi ult, %y, %k511 : index
      %okx = arith.andi %xlo, %xhi : i1
      %oky = arith.andi %ylo, %yhi : i1
      %ok = arith.andi %okx, %oky : i1
      scf.if %ok {
        %xm = arith.subi %x, %k1 : index
        %xp = arith.addi %x, %k1 : index
        %ym = arith.subi %y, %k1 : index
        %yp = arith.addi %y, %k1 : index
        %a0 = memref.load %img[%ym, %xm] : memref<512x512xf32>
        %a1 = memref.load %img[%ym, %x] : memref<512x512xf32>
        %a2 = memref.load %img[%ym, %xp] : memref<512x512xf32>
        %b0 = memref.load %img[%y, %xm] : memref<512x512xf32>
        %b1 = memref.load %img[%y, %x] : memref<512x512xf32>
        %b2 = memref.load %img[%y, %xp] : memref<512x512xf32>
        %c0 = memref.load %img[%yp, %xm] : memref<512x512xf32>
        %c1_ = memref.load %img[%yp, %x] : memref<512x512xf32>
        %c2 = memref.load %img[%yp, %xp] : memref<512x512xf32>
        %s0 = arith.addf %a0, %a1 : f32
        %s1 = arith.addf %s0, %a2 : f32
        %s2 = arith.addf %s1, %b0 : f32
        %s3 = arith.addf %s2, %b1 : f32
        %s4 = arith.addf %s3, %b2 : f32
        %s5 = arith.addf %s4, %c0 : f32
        %s6 = arith.addf %s5, %c1_ : f32
        %s7 = arith.addf %s6, %c2 : f32
        %avg = arith.mulf %s7, %ninth : f32
        memref.store %avg, %out[%y, %x] : memref<512x512xf32>
      }
      gpu.terminator
    }
    return
  }
}
