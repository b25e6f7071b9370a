// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// Scalar kernel arguments of every type (i1, i8, i16, i32, i64, f16, f32, f64, index), negative i8/i16 sign- and zero-extended.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [1, -7, 249, -300, 65236, -123456789, 5000000000, 123456, 11, -123454689]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [-0.375, -2.25, 0.125, -2.5]

func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF64(memref<*xf64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Every scalar is stored to and loaded back from a host buffer so that it
  // cannot be folded into the kernel as a constant: it must be a kernel
  // argument (a push constant).
  %vflag = arith.constant true
  %vb = arith.constant -7 : i8
  %vh = arith.constant -300 : i16
  %vw = arith.constant -123456789 : i32
  %vl = arith.constant 5000000000 : i64
  %vx = arith.constant -0.375 : f16
  %vf = arith.constant -2.25 : f32
  %vd = arith.constant 0.125 : f64
  %vn = arith.constant 123456 : index
  %mflag = memref.alloc() : memref<1xi1>
  %mb = memref.alloc() : memref<1xi8>
  %mh = memref.alloc() : memref<1xi16>
  %mw = memref.alloc() : memref<1xi32>
  %ml = memref.alloc() : memref<1xi64>
  %mx = memref.alloc() : memref<1xf16>
  %mf = memref.alloc() : memref<1xf32>
  %md = memref.alloc() : memref<1xf64>
  %mn = memref.alloc() : memref<1xindex>
  memref.store %vflag, %mflag[%c0] : memref<1xi1>
  memref.store %vb, %mb[%c0] : memref<1xi8>
  memref.store %vh, %mh[%c0] : memref<1xi16>
  memref.store %vw, %mw[%c0] : memref<1xi32>
  memref.store %vl, %ml[%c0] : memref<1xi64>
  memref.store %vx, %mx[%c0] : memref<1xf16>
  memref.store %vf, %mf[%c0] : memref<1xf32>
  memref.store %vd, %md[%c0] : memref<1xf64>
  memref.store %vn, %mn[%c0] : memref<1xindex>
  %flag = memref.load %mflag[%c0] : memref<1xi1>
  %b = memref.load %mb[%c0] : memref<1xi8>
  %h = memref.load %mh[%c0] : memref<1xi16>
  %w = memref.load %mw[%c0] : memref<1xi32>
  %l = memref.load %ml[%c0] : memref<1xi64>
  %x = memref.load %mx[%c0] : memref<1xf16>
  %f = memref.load %mf[%c0] : memref<1xf32>
  %d = memref.load %md[%c0] : memref<1xf64>
  %n = memref.load %mn[%c0] : memref<1xindex>
  %outi = memref.alloc() : memref<10xi64>
  %outf = memref.alloc() : memref<4xf64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k5 = arith.constant 5 : index
    %k6 = arith.constant 6 : index
    %k7 = arith.constant 7 : index
    %k8 = arith.constant 8 : index
    %k9 = arith.constant 9 : index
    %e11 = arith.constant 11 : i64
    %e22 = arith.constant 22 : i64
    %i0 = arith.extui %flag : i1 to i64
    %i1 = arith.extsi %b : i8 to i64
    %i2 = arith.extui %b : i8 to i64
    %i3 = arith.extsi %h : i16 to i64
    %i4 = arith.extui %h : i16 to i64
    %i5 = arith.extsi %w : i32 to i64
    %i7 = arith.index_cast %n : index to i64
    %i8 = arith.select %flag, %e11, %e22 : i64
    // b * h + w in i32: 2100 - 123456789.
    %b32 = arith.extsi %b : i8 to i32
    %h32 = arith.extsi %h : i16 to i32
    %bh = arith.muli %b32, %h32 : i32
    %bhw = arith.addi %bh, %w : i32
    %i9 = arith.extsi %bhw : i32 to i64
    memref.store %i0, %outi[%k0] : memref<10xi64>
    memref.store %i1, %outi[%k1] : memref<10xi64>
    memref.store %i2, %outi[%k2] : memref<10xi64>
    memref.store %i3, %outi[%k3] : memref<10xi64>
    memref.store %i4, %outi[%k4] : memref<10xi64>
    memref.store %i5, %outi[%k5] : memref<10xi64>
    memref.store %l, %outi[%k6] : memref<10xi64>
    memref.store %i7, %outi[%k7] : memref<10xi64>
    memref.store %i8, %outi[%k8] : memref<10xi64>
    memref.store %i9, %outi[%k9] : memref<10xi64>
    %f0 = arith.extf %x : f16 to f64
    %f1 = arith.extf %f : f32 to f64
    %s0 = arith.addf %f0, %f1 : f64
    %s1 = arith.addf %s0, %d : f64
    memref.store %f0, %outf[%k0] : memref<4xf64>
    memref.store %f1, %outf[%k1] : memref<4xf64>
    memref.store %d, %outf[%k2] : memref<4xf64>
    memref.store %s1, %outf[%k3] : memref<4xf64>
    gpu.terminator
  }
  %ui = memref.cast %outi : memref<10xi64> to memref<*xi64>
  call @printMemrefI64(%ui) : (memref<*xi64>) -> ()
  %uf = memref.cast %outf : memref<4xf64> to memref<*xf64>
  call @printMemrefF64(%uf) : (memref<*xf64>) -> ()
  memref.dealloc %mflag : memref<1xi1>
  memref.dealloc %mb : memref<1xi8>
  memref.dealloc %mh : memref<1xi16>
  memref.dealloc %mw : memref<1xi32>
  memref.dealloc %ml : memref<1xi64>
  memref.dealloc %mx : memref<1xf16>
  memref.dealloc %mf : memref<1xf32>
  memref.dealloc %md : memref<1xf64>
  memref.dealloc %mn : memref<1xindex>
  memref.dealloc %outi : memref<10xi64>
  memref.dealloc %outf : memref<4xf64>
  return
}
