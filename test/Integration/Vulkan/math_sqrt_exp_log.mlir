// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// math.sqrt, math.exp and math.log in a kernel (checked to 5 or 6 significant digits).

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}{{(0\.999997|0\.999998|0\.999999|1)}}, 1.4142{{[0-9]*}}, 1.7320{{[0-9]*}}, {{(1\.99999|2|2\.00001)}}, 2.2360{{[0-9]*}}, 2.449{{[0-9]*}}, 2.6457{{[0-9]*}}, 2.8284{{[0-9]*}}, {{(2\.99999|3|3\.00001)}}, 3.1622{{[0-9]*}}, 3.3166{{[0-9]*}}, 3.464{{[0-9]*}}, 3.6055{{[0-9]*}}, 3.7416{{[0-9]*}}, 3.8729{{[0-9]*}}, {{(3\.99999|4|4\.00001)}}],
// CHECK-NEXT: [0.13533{{[0-9]*}}, 0.17377{{[0-9]*}}, 0.2231{{[0-9]*}}, 0.28650{{[0-9]*}}, 0.3678{{[0-9]*}}, 0.47236{{[0-9]*}}, 0.6065{{[0-9]*}}, {{(0\.778798|0\.778799|0\.7788|0\.778801|0\.778802|0\.778803)}}, {{(0\.999997|0\.999998|0\.999999|1)}}, 1.2840{{[0-9]*}}, 1.6487{{[0-9]*}}, {{(2\.11699|2\.117|2\.11701)}}, 2.7182{{[0-9]*}}, 3.4903{{[0-9]*}}, 4.481{{[0-9]*}}, 5.754{{[0-9]*}}],
// CHECK-NEXT: [1.0986{{[0-9]*}}, 1.386{{[0-9]*}}, 1.6094{{[0-9]*}}, 1.7917{{[0-9]*}}, 1.9459{{[0-9]*}}, 2.0794{{[0-9]*}}, 2.1972{{[0-9]*}}, 2.3025{{[0-9]*}}, 2.397{{[0-9]*}}, 2.4849{{[0-9]*}}, 2.5649{{[0-9]*}}, 2.6390{{[0-9]*}}, 2.7080{{[0-9]*}}, 2.772{{[0-9]*}}, 2.8332{{[0-9]*}}, 2.8903{{[0-9]*}}]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %eight = arith.constant 8.0 : f32
  %quarter = arith.constant 0.25 : f32
  %in = memref.alloc() : memref<3x16xf32>
  %out = memref.alloc() : memref<3x16xf32>
  // Row 0: sqrt of i + 1; row 1: exp of (i - 8) / 4; row 2: log of i + 3.
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %f, %one : f32
    %e0 = arith.subf %f, %eight : f32
    %e = arith.mulf %e0, %quarter : f32
    %l = arith.addf %f, %three : f32
    memref.store %s, %in[%c0, %i] : memref<3x16xf32>
    memref.store %e, %in[%c1, %i] : memref<3x16xf32>
    memref.store %l, %in[%c2, %i] : memref<3x16xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %a = memref.load %in[%c0, %i] : memref<3x16xf32>
    %b = memref.load %in[%c1, %i] : memref<3x16xf32>
    %c = memref.load %in[%c2, %i] : memref<3x16xf32>
    %ra = math.sqrt %a : f32
    %rb = math.exp %b : f32
    %rc = math.log %c : f32
    memref.store %ra, %out[%c0, %i] : memref<3x16xf32>
    memref.store %rb, %out[%c1, %i] : memref<3x16xf32>
    memref.store %rc, %out[%c2, %i] : memref<3x16xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<3x16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<3x16xf32>
  memref.dealloc %out : memref<3x16xf32>
  return
}
