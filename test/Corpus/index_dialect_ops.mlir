// RUN: kiln-compile %s --target=vulkan --emit=spirv --target-env=vulkan-1.1 -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s
// Reorders a 48x64 matrix into 8x8-tile-major order with index dialect ops (constant, add, mul, divu, remu, cmp).

// CHECK: OpEntryPoint GLCompute %{{.*}} "tile_gather_kernel"
// CHECK: OpExecutionMode %{{.*}} LocalSize 64 1 1
// CHECK: OpFunction
// CHECK: OpUDiv %uint %{{[0-9]+}} %uint_64
// CHECK: OpUMod %uint %{{[0-9]+}} %uint_64
// CHECK: OpULessThan %bool
// CHECK: OpSelectionMerge
// CHECK: OpUDiv %uint %{{[0-9]+}} %uint_8
// CHECK: OpUMod %uint %{{[0-9]+}} %uint_8
// CHECK: OpIMul %uint
// CHECK: OpIAdd %uint
// CHECK: OpLoad %float
// CHECK: OpStore

func.func @tile_gather(%src: memref<3072xf32>, %dst: memref<3072xf32>) {
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c48, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %eight = index.constant 8
    %width = index.constant 64
    %total = index.constant 3072
    %tiles_per_row = index.constant 8
    %tile_elems = index.constant 64
    %start = index.mul %bx, %sx
    %i = index.add %start, %tx
    // Destination position i enumerates tiles; find the tile and the element in it.
    %tile = index.divu %i, %tile_elems
    %in_tile = index.remu %i, %tile_elems
    %ok = index.cmp ult(%i, %total)
    scf.if %ok {
      %trow = index.divu %tile, %tiles_per_row
      %tcol = index.remu %tile, %tiles_per_row
      %erow = index.divu %in_tile, %eight
      %ecol = index.remu %in_tile, %eight
      %r0 = index.mul %trow, %eight
      %row = index.add %r0, %erow
      %c0 = index.mul %tcol, %eight
      %col = index.add %c0, %ecol
      %rw = index.mul %row, %width
      %s = index.add %rw, %col
      %v = memref.load %src[%s] : memref<3072xf32>
      memref.store %v, %dst[%i] : memref<3072xf32>
    }
    gpu.terminator
  }
  return
}
