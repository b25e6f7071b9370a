// MLIR's runner utilities and Kiln's (linked into AOT executables) print the
// same text: every memref printer, element type, layout and vector.print form,
// memrefCopy and verifyMemRef's report on stderr. Addresses are masked.
// RUN: kiln-vulkan-runner %s > %t.jit.out 2> %t.jit.err
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: %t.exe > %t.aot.out 2> %t.aot.err
// RUN: sed -E "s/base@ = 0x[0-9a-f]+/base@ = ADDR/g" %t.jit.out > %t.jit.masked
// RUN: sed -E "s/base@ = 0x[0-9a-f]+/base@ = ADDR/g" %t.aot.out > %t.aot.masked
// RUN: diff %t.jit.masked %t.aot.masked
// RUN: diff %t.jit.err %t.aot.err
// RUN: FileCheck %s < %t.aot.masked
// RUN: FileCheck %s --check-prefix=ERR < %t.aot.err

// CHECK: Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [12] strides = [1] data = 
// CHECK-NEXT: [0,  -0,  1.5,  -2.25,  1.23457e+08,  1e-07,  3.14159,  1e+20,  inf,  -inf,  nan,  100]
// CHECK: rank = 3 offset = 0 sizes = [2, 2, 3] strides = [6, 3, 1] data =
// CHECK-NEXT: {{^\[\[\[}}0,    -0,    1.5], 
// CHECK-NEXT: {{^}}  [-2.25,    1.23457e+08,    1e-07]], 
// CHECK: rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2] data =
// CHECK-NEXT: [1e-07,   1e+20], 
// CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
// CHECK-NEXT: [7.5]
// CHECK: [H,  i,  !]
// CHECK: [1.5,  -0,  65504,  5.96046e-08]
// CHECK: [(1,-2.5),  (-2.5,1)]
// CHECK: ( ( 1, -2 ), ( 3, 4 ) )
// ERR: 1e-07 != 0 offset = 0

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefInd(memref<*xindex>)
func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefC32(memref<*xcomplex<f32>>)
func.func private @printMemrefShapeF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemref1dF32(memref<?xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemref2dF32(memref<?x?xf32>) attributes {llvm.emit_c_interface}
func.func private @verifyMemRefF32(memref<*xf32>, memref<*xf32>) -> i64 attributes {llvm.emit_c_interface}
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index

  // f32: fractions, large, small, negative, inf, nan.
  %f = memref.alloc() : memref<12xf32>
  %vals = arith.constant dense<[0.0, -0.0, 1.5, -2.25, 123456789.0, 1.0e-7, 3.14159265, 1.0e20, 0x7F800000, 0xFF800000, 0x7FC00000, 100.0]> : vector<12xf32>
  vector.store %vals, %f[%c0] : memref<12xf32>, vector<12xf32>
  %fu = memref.cast %f : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
  call @printMemrefShapeF32(%fu) : (memref<*xf32>) -> ()

  // 2-D and 3-D views of the same data, a strided subview, rank 0, size 1.
  %f2 = memref.expand_shape %f [[0, 1]] output_shape [3, 4] : memref<12xf32> into memref<3x4xf32>
  %f2u = memref.cast %f2 : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%f2u) : (memref<*xf32>) -> ()
  %f3 = memref.expand_shape %f [[0, 1, 2]] output_shape [2, 2, 3] : memref<12xf32> into memref<2x2x3xf32>
  %f3u = memref.cast %f3 : memref<2x2x3xf32> to memref<*xf32>
  call @printMemrefF32(%f3u) : (memref<*xf32>) -> ()
  %sv = memref.subview %f2[1, 1] [2, 2] [1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
  %svu = memref.cast %sv : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<*xf32>
  call @printMemrefF32(%svu) : (memref<*xf32>) -> ()
  %s0 = memref.subview %f[2] [1] [1] : memref<12xf32> to memref<1xf32, strided<[1], offset: 2>>
  %s0u = memref.cast %s0 : memref<1xf32, strided<[1], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%s0u) : (memref<*xf32>) -> ()
  %r0 = memref.alloc() : memref<f32>
  %seven = arith.constant 7.5 : f32
  memref.store %seven, %r0[] : memref<f32>
  %r0u = memref.cast %r0 : memref<f32> to memref<*xf32>
  call @printMemrefF32(%r0u) : (memref<*xf32>) -> ()
  %f1d = memref.cast %f : memref<12xf32> to memref<?xf32>
  call @printMemref1dF32(%f1d) : (memref<?xf32>) -> ()
  %f2d = memref.cast %f2 : memref<3x4xf32> to memref<?x?xf32>
  call @printMemref2dF32(%f2d) : (memref<?x?xf32>) -> ()

  // memref.copy into a strided destination, then verification.
  %g = memref.alloc() : memref<3x4xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%g : memref<3x4xf32>)
  %gsv = memref.subview %g[0, 0] [2, 2] [1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2]>>
  memref.copy %sv, %gsv : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<2x2xf32, strided<[4, 2]>>
  %gu = memref.cast %g : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%gu) : (memref<*xf32>) -> ()
  %errors = call @verifyMemRefF32(%gu, %f2u) : (memref<*xf32>, memref<*xf32>) -> i64
  call @printI64(%errors) : (i64) -> ()
  call @printNewline() : () -> ()

  // Other element types.
  %d = memref.alloc() : memref<3xf64>
  %dv = arith.constant dense<[1.0e-300, 2.5, -1.0e100]> : vector<3xf64>
  vector.store %dv, %d[%c0] : memref<3xf64>, vector<3xf64>
  %du = memref.cast %d : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%du) : (memref<*xf64>) -> ()
  %i = memref.alloc() : memref<2x3xi32>
  %iv = arith.constant dense<[[-2147483648, 0, 7], [2147483647, -1, 42]]> : vector<2x3xi32>
  vector.transfer_write %iv, %i[%c0, %c0] : vector<2x3xi32>, memref<2x3xi32>
  %iu = memref.cast %i : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%iu) : (memref<*xi32>) -> ()
  %l = memref.alloc() : memref<2xi64>
  %lv = arith.constant dense<[-9223372036854775808, 9223372036854775807]> : vector<2xi64>
  vector.store %lv, %l[%c0] : memref<2xi64>, vector<2xi64>
  %lu = memref.cast %l : memref<2xi64> to memref<*xi64>
  call @printMemrefI64(%lu) : (memref<*xi64>) -> ()
  %x = memref.alloc() : memref<3xindex>
  %xv = arith.constant dense<[0, 5, -1]> : vector<3xindex>
  vector.store %xv, %x[%c0] : memref<3xindex>, vector<3xindex>
  %xu = memref.cast %x : memref<3xindex> to memref<*xindex>
  call @printMemrefInd(%xu) : (memref<*xindex>) -> ()
  %b = memref.alloc() : memref<3xi8>
  %bv = arith.constant dense<[72, 105, 33]> : vector<3xi8>
  vector.store %bv, %b[%c0] : memref<3xi8>, vector<3xi8>
  %bu = memref.cast %b : memref<3xi8> to memref<*xi8>
  call @printMemrefI8(%bu) : (memref<*xi8>) -> ()
  %s = memref.alloc() : memref<2xi16>
  %sv16 = arith.constant dense<[-32768, 12345]> : vector<2xi16>
  vector.store %sv16, %s[%c0] : memref<2xi16>, vector<2xi16>
  %su = memref.cast %s : memref<2xi16> to memref<*xi16>
  call @printMemrefI16(%su) : (memref<*xi16>) -> ()
  %h = memref.alloc() : memref<4xf16>
  %hv = arith.constant dense<[1.5, -0.0, 65504.0, 5.96e-8]> : vector<4xf16>
  vector.store %hv, %h[%c0] : memref<4xf16>, vector<4xf16>
  %hu = memref.cast %h : memref<4xf16> to memref<*xf16>
  call @printMemrefF16(%hu) : (memref<*xf16>) -> ()
  %bf = memref.alloc() : memref<2xbf16>
  %bfv = arith.constant dense<[3.0, -1.0e30]> : vector<2xbf16>
  vector.store %bfv, %bf[%c0] : memref<2xbf16>, vector<2xbf16>
  %bfu = memref.cast %bf : memref<2xbf16> to memref<*xbf16>
  call @printMemrefBF16(%bfu) : (memref<*xbf16>) -> ()
  %c = memref.alloc() : memref<2xcomplex<f32>>
  %one = arith.constant 1.0 : f32
  %neg = arith.constant -2.5 : f32
  %z0 = complex.create %one, %neg : complex<f32>
  %z1 = complex.create %neg, %one : complex<f32>
  memref.store %z0, %c[%c0] : memref<2xcomplex<f32>>
  memref.store %z1, %c[%c1] : memref<2xcomplex<f32>>
  %cu = memref.cast %c : memref<2xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%cu) : (memref<*xcomplex<f32>>) -> ()

  // vector.print: printF32, printI64, printOpen/Comma/Close.
  %pv = arith.constant dense<[1.25, -3.0, 1.0e10]> : vector<3xf32>
  vector.print %pv : vector<3xf32>
  %pi = arith.constant dense<[[1, -2], [3, 4]]> : vector<2x2xi64>
  vector.print %pi : vector<2x2xi64>
  %pf64 = arith.constant 2.718281828 : f64
  vector.print %pf64 : f64
  %pidx = arith.constant 18446744073709551615 : i64
  vector.print %pidx : i64
  return
}
