// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// gpu.all_reduce with every operation MLIR accepts, on i32 and f32, with
// and without `uniform`, and with a body, over workgroups of 1, 7, 64
// (32x2), 100, 256 (16x4x4) and 1024 invocations, two workgroups each.
// Row 0 holds what invocation 0 of workgroup 1 got, row 1 what the last
// invocation got: every invocation receives the result.

// workgroup 1x1x1
// CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}-50, 1, 11, -50, 11, -50, -2, 1, 0, 1],
// CHECK-NEXT: [-50, 1, 11, -50, 11, -50, -2, 1, 0, 1]]
// CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}-3, 1, -39.25, -39.25, -39.25, -39.25],
// CHECK-NEXT: [-3, 1, -39.25, -39.25, -39.25, -39.25]]
// workgroup 7x1x1
// CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}-287, -30, 11, -50, -1, -32, -128, 127, 9, 7],
// CHECK-NEXT: [-287, -30, 11, -50, -1, -32, -128, 127, 9, 7]]
// CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}-10.5, -3, -39.25, 44.75, -39.25, 44.75],
// CHECK-NEXT: [-10.5, -3, -39.25, 44.75, -39.25, 44.75]]
// workgroup 32x2x1
// CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}2848, -30, 0, -50, -1, 139, -256, 1048575, 448, 64],
// CHECK-NEXT: [2848, -30, 0, -50, -1, 139, -256, 1048575, 448, 64]]
// CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}816, -3, -50.25, 49.75, -50.25, 49.75],
// CHECK-NEXT: [816, -3, -50.25, 49.75, -50.25, 49.75]]
// workgroup 100x1x1
// CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}9850, -30, 0, -50, -1, 247, -256, 1048575, 444, 100],
// CHECK-NEXT: [9850, -30, 0, -50, -1, 247, -256, 1048575, 444, 100]]
// CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}2175, -3, -50.25, 49.75, -50.25, 49.75],
// CHECK-NEXT: [2175, -3, -50.25, 49.75, -50.25, 49.75]]
// workgroup 16x4x4
// CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}85120, -30, 0, -50, -1, 715, -256, 1048575, 1792, 256],
// CHECK-NEXT: [85120, -30, 0, -50, -1, 715, -256, 1048575, 1792, 256]]
// CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}15552, -3, -50.25, 49.75, -50.25, 49.75],
// CHECK-NEXT: [15552, -3, -50.25, 49.75, -50.25, 49.75]]
// workgroup 1024x1x1
// CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
// CHECK-NEXT: {{\[\[}}1520128, -30, 0, -50, -1, 3019, -256, 1048575, 3072, 1024],
// CHECK-NEXT: [1520128, -30, 0, -50, -1, 3019, -256, 1048575, 3072, 1024]]
// CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}258816, -3, -50.25, 49.75, -50.25, 49.75],
// CHECK-NEXT: [258816, -3, -50.25, 49.75, -50.25, 49.75]]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @wg_1x1x1() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cx = arith.constant 1 : index
  %cy = arith.constant 1 : index
  %cz = arith.constant 1 : index
  %ires = memref.alloc() : memref<2x10xi32>
  %fres = memref.alloc() : memref<2x6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cx, %sy = %cy, %sz = %cz) {
    %tyx = arith.muli %ty, %sx : index
    %tzxy0 = arith.muli %tz, %sx : index
    %tzxy = arith.muli %tzxy0, %sy : index
    %t0 = arith.addi %tx, %tyx : index
    %t = arith.addi %t0, %tzxy : index
    %ti = arith.index_cast %t : index to i32
    %n0 = arith.muli %sx, %sy : index
    %n = arith.muli %n0, %sz : index
    %last = arith.subi %n, %c1 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    %islast = arith.cmpi eq, %t, %last : index
    %isb1 = arith.cmpi eq, %bx, %c1 : index
    %w0 = arith.andi %is0, %isb1 : i1
    %wl = arith.andi %islast, %isb1 : i1
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i20 = arith.constant 20 : i32
    %i37 = arith.constant 37 : i32
    %i11 = arith.constant 11 : i32
    %i101 = arith.constant 101 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %i50 = arith.constant 50 : i32
    // t*3 - 50
    %a0 = arith.muli %ti, %i3 : i32
    %lin = arith.subi %a0, %i50 : i32
    // 3, -2, 5 at t = 1, 2, 6; else 1
    %e1 = arith.cmpi eq, %ti, %i1 : i32
    %e2 = arith.cmpi eq, %ti, %i2 : i32
    %e6 = arith.cmpi eq, %ti, %i6 : i32
    %m0 = arith.select %e6, %i5, %i1 : i32
    %m1 = arith.select %e2, %im2, %m0 : i32
    %mulv = arith.select %e1, %i3, %m1 : i32
    // (t*37 + 11) % 101, and -1 at t = 3
    %h0 = arith.muli %ti, %i37 : i32
    %h1 = arith.addi %h0, %i11 : i32
    %hash = arith.remsi %h1, %i101 : i32
    %e3 = arith.cmpi eq, %ti, %i3 : i32
    %uv = arith.select %e3, %im1, %hash : i32
    // ~(1 << (t % 8)), 1 << (t % 20), t * 7
    %r8 = arith.remsi %ti, %i8 : i32
    %b8 = arith.shli %i1, %r8 : i32
    %andv = arith.xori %b8, %im1 : i32
    %r20 = arith.remsi %ti, %i20 : i32
    %orv = arith.shli %i1, %r20 : i32
    %xorv = arith.muli %ti, %i7 : i32
    %ir0 = gpu.all_reduce add %lin uniform {} : (i32) -> (i32)
    %ir1 = gpu.all_reduce mul %mulv {} : (i32) -> (i32)
    %ir2 = gpu.all_reduce minui %uv uniform {} : (i32) -> (i32)
    %ir3 = gpu.all_reduce minsi %lin {} : (i32) -> (i32)
    %ir4 = gpu.all_reduce maxui %uv uniform {} : (i32) -> (i32)
    %ir5 = gpu.all_reduce maxsi %lin {} : (i32) -> (i32)
    %ir6 = gpu.all_reduce and %andv uniform {} : (i32) -> (i32)
    %ir7 = gpu.all_reduce or %orv {} : (i32) -> (i32)
    %ir8 = gpu.all_reduce xor %xorv uniform {} : (i32) -> (i32)
    %ir9 = gpu.all_reduce %i1 uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %sum = arith.addi %lhs, %rhs : i32
      gpu.yield %sum : i32
    } : (i32) -> (i32)
    // f32: t*0.5 - 3; 1.5, -2 at t = 1, 2; hash - 50.25
    %tf = arith.sitofp %ti : i32 to f32
    %fhalf = arith.constant 0.5 : f32
    %f3 = arith.constant 3.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f15 = arith.constant 1.5 : f32
    %fm2 = arith.constant -2.0 : f32
    %f5025 = arith.constant 50.25 : f32
    %fa0 = arith.mulf %tf, %fhalf : f32
    %flin = arith.subf %fa0, %f3 : f32
    %fm0 = arith.select %e2, %fm2, %f1 : f32
    %fmul = arith.select %e1, %f15, %fm0 : f32
    %hf = arith.sitofp %hash : i32 to f32
    %fh = arith.subf %hf, %f5025 : f32
    %fr0 = gpu.all_reduce add %flin {} : (f32) -> (f32)
    %fr1 = gpu.all_reduce mul %fmul uniform {} : (f32) -> (f32)
    %fr2 = gpu.all_reduce minnumf %fh {} : (f32) -> (f32)
    %fr3 = gpu.all_reduce maxnumf %fh uniform {} : (f32) -> (f32)
    %fr4 = gpu.all_reduce minimumf %fh {} : (f32) -> (f32)
    %fr5 = gpu.all_reduce maximumf %fh uniform {} : (f32) -> (f32)
    scf.if %w0 {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c0, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c0, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c0, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c0, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c0, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c0, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c0, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c0, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c0, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c0, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c0, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c0, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c0, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c0, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c0, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c0, %fk5] : memref<2x6xf32>
    }
    scf.if %wl {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c1, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c1, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c1, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c1, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c1, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c1, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c1, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c1, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c1, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c1, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c1, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c1, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c1, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c1, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c1, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c1, %fk5] : memref<2x6xf32>
    }
    gpu.terminator
  }
  %pi = memref.cast %ires : memref<2x10xi32> to memref<*xi32>
  call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
  %pf = memref.cast %fres : memref<2x6xf32> to memref<*xf32>
  call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
  memref.dealloc %ires : memref<2x10xi32>
  memref.dealloc %fres : memref<2x6xf32>
  return
}

func.func @wg_7x1x1() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cx = arith.constant 7 : index
  %cy = arith.constant 1 : index
  %cz = arith.constant 1 : index
  %ires = memref.alloc() : memref<2x10xi32>
  %fres = memref.alloc() : memref<2x6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cx, %sy = %cy, %sz = %cz) {
    %tyx = arith.muli %ty, %sx : index
    %tzxy0 = arith.muli %tz, %sx : index
    %tzxy = arith.muli %tzxy0, %sy : index
    %t0 = arith.addi %tx, %tyx : index
    %t = arith.addi %t0, %tzxy : index
    %ti = arith.index_cast %t : index to i32
    %n0 = arith.muli %sx, %sy : index
    %n = arith.muli %n0, %sz : index
    %last = arith.subi %n, %c1 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    %islast = arith.cmpi eq, %t, %last : index
    %isb1 = arith.cmpi eq, %bx, %c1 : index
    %w0 = arith.andi %is0, %isb1 : i1
    %wl = arith.andi %islast, %isb1 : i1
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i20 = arith.constant 20 : i32
    %i37 = arith.constant 37 : i32
    %i11 = arith.constant 11 : i32
    %i101 = arith.constant 101 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %i50 = arith.constant 50 : i32
    // t*3 - 50
    %a0 = arith.muli %ti, %i3 : i32
    %lin = arith.subi %a0, %i50 : i32
    // 3, -2, 5 at t = 1, 2, 6; else 1
    %e1 = arith.cmpi eq, %ti, %i1 : i32
    %e2 = arith.cmpi eq, %ti, %i2 : i32
    %e6 = arith.cmpi eq, %ti, %i6 : i32
    %m0 = arith.select %e6, %i5, %i1 : i32
    %m1 = arith.select %e2, %im2, %m0 : i32
    %mulv = arith.select %e1, %i3, %m1 : i32
    // (t*37 + 11) % 101, and -1 at t = 3
    %h0 = arith.muli %ti, %i37 : i32
    %h1 = arith.addi %h0, %i11 : i32
    %hash = arith.remsi %h1, %i101 : i32
    %e3 = arith.cmpi eq, %ti, %i3 : i32
    %uv = arith.select %e3, %im1, %hash : i32
    // ~(1 << (t % 8)), 1 << (t % 20), t * 7
    %r8 = arith.remsi %ti, %i8 : i32
    %b8 = arith.shli %i1, %r8 : i32
    %andv = arith.xori %b8, %im1 : i32
    %r20 = arith.remsi %ti, %i20 : i32
    %orv = arith.shli %i1, %r20 : i32
    %xorv = arith.muli %ti, %i7 : i32
    %ir0 = gpu.all_reduce add %lin uniform {} : (i32) -> (i32)
    %ir1 = gpu.all_reduce mul %mulv {} : (i32) -> (i32)
    %ir2 = gpu.all_reduce minui %uv uniform {} : (i32) -> (i32)
    %ir3 = gpu.all_reduce minsi %lin {} : (i32) -> (i32)
    %ir4 = gpu.all_reduce maxui %uv uniform {} : (i32) -> (i32)
    %ir5 = gpu.all_reduce maxsi %lin {} : (i32) -> (i32)
    %ir6 = gpu.all_reduce and %andv uniform {} : (i32) -> (i32)
    %ir7 = gpu.all_reduce or %orv {} : (i32) -> (i32)
    %ir8 = gpu.all_reduce xor %xorv uniform {} : (i32) -> (i32)
    %ir9 = gpu.all_reduce %i1 uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %sum = arith.addi %lhs, %rhs : i32
      gpu.yield %sum : i32
    } : (i32) -> (i32)
    // f32: t*0.5 - 3; 1.5, -2 at t = 1, 2; hash - 50.25
    %tf = arith.sitofp %ti : i32 to f32
    %fhalf = arith.constant 0.5 : f32
    %f3 = arith.constant 3.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f15 = arith.constant 1.5 : f32
    %fm2 = arith.constant -2.0 : f32
    %f5025 = arith.constant 50.25 : f32
    %fa0 = arith.mulf %tf, %fhalf : f32
    %flin = arith.subf %fa0, %f3 : f32
    %fm0 = arith.select %e2, %fm2, %f1 : f32
    %fmul = arith.select %e1, %f15, %fm0 : f32
    %hf = arith.sitofp %hash : i32 to f32
    %fh = arith.subf %hf, %f5025 : f32
    %fr0 = gpu.all_reduce add %flin {} : (f32) -> (f32)
    %fr1 = gpu.all_reduce mul %fmul uniform {} : (f32) -> (f32)
    %fr2 = gpu.all_reduce minnumf %fh {} : (f32) -> (f32)
    %fr3 = gpu.all_reduce maxnumf %fh uniform {} : (f32) -> (f32)
    %fr4 = gpu.all_reduce minimumf %fh {} : (f32) -> (f32)
    %fr5 = gpu.all_reduce maximumf %fh uniform {} : (f32) -> (f32)
    scf.if %w0 {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c0, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c0, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c0, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c0, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c0, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c0, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c0, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c0, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c0, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c0, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c0, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c0, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c0, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c0, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c0, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c0, %fk5] : memref<2x6xf32>
    }
    scf.if %wl {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c1, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c1, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c1, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c1, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c1, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c1, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c1, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c1, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c1, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c1, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c1, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c1, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c1, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c1, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c1, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c1, %fk5] : memref<2x6xf32>
    }
    gpu.terminator
  }
  %pi = memref.cast %ires : memref<2x10xi32> to memref<*xi32>
  call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
  %pf = memref.cast %fres : memref<2x6xf32> to memref<*xf32>
  call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
  memref.dealloc %ires : memref<2x10xi32>
  memref.dealloc %fres : memref<2x6xf32>
  return
}

func.func @wg_32x2x1() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cx = arith.constant 32 : index
  %cy = arith.constant 2 : index
  %cz = arith.constant 1 : index
  %ires = memref.alloc() : memref<2x10xi32>
  %fres = memref.alloc() : memref<2x6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cx, %sy = %cy, %sz = %cz) {
    %tyx = arith.muli %ty, %sx : index
    %tzxy0 = arith.muli %tz, %sx : index
    %tzxy = arith.muli %tzxy0, %sy : index
    %t0 = arith.addi %tx, %tyx : index
    %t = arith.addi %t0, %tzxy : index
    %ti = arith.index_cast %t : index to i32
    %n0 = arith.muli %sx, %sy : index
    %n = arith.muli %n0, %sz : index
    %last = arith.subi %n, %c1 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    %islast = arith.cmpi eq, %t, %last : index
    %isb1 = arith.cmpi eq, %bx, %c1 : index
    %w0 = arith.andi %is0, %isb1 : i1
    %wl = arith.andi %islast, %isb1 : i1
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i20 = arith.constant 20 : i32
    %i37 = arith.constant 37 : i32
    %i11 = arith.constant 11 : i32
    %i101 = arith.constant 101 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %i50 = arith.constant 50 : i32
    // t*3 - 50
    %a0 = arith.muli %ti, %i3 : i32
    %lin = arith.subi %a0, %i50 : i32
    // 3, -2, 5 at t = 1, 2, 6; else 1
    %e1 = arith.cmpi eq, %ti, %i1 : i32
    %e2 = arith.cmpi eq, %ti, %i2 : i32
    %e6 = arith.cmpi eq, %ti, %i6 : i32
    %m0 = arith.select %e6, %i5, %i1 : i32
    %m1 = arith.select %e2, %im2, %m0 : i32
    %mulv = arith.select %e1, %i3, %m1 : i32
    // (t*37 + 11) % 101, and -1 at t = 3
    %h0 = arith.muli %ti, %i37 : i32
    %h1 = arith.addi %h0, %i11 : i32
    %hash = arith.remsi %h1, %i101 : i32
    %e3 = arith.cmpi eq, %ti, %i3 : i32
    %uv = arith.select %e3, %im1, %hash : i32
    // ~(1 << (t % 8)), 1 << (t % 20), t * 7
    %r8 = arith.remsi %ti, %i8 : i32
    %b8 = arith.shli %i1, %r8 : i32
    %andv = arith.xori %b8, %im1 : i32
    %r20 = arith.remsi %ti, %i20 : i32
    %orv = arith.shli %i1, %r20 : i32
    %xorv = arith.muli %ti, %i7 : i32
    %ir0 = gpu.all_reduce add %lin uniform {} : (i32) -> (i32)
    %ir1 = gpu.all_reduce mul %mulv {} : (i32) -> (i32)
    %ir2 = gpu.all_reduce minui %uv uniform {} : (i32) -> (i32)
    %ir3 = gpu.all_reduce minsi %lin {} : (i32) -> (i32)
    %ir4 = gpu.all_reduce maxui %uv uniform {} : (i32) -> (i32)
    %ir5 = gpu.all_reduce maxsi %lin {} : (i32) -> (i32)
    %ir6 = gpu.all_reduce and %andv uniform {} : (i32) -> (i32)
    %ir7 = gpu.all_reduce or %orv {} : (i32) -> (i32)
    %ir8 = gpu.all_reduce xor %xorv uniform {} : (i32) -> (i32)
    %ir9 = gpu.all_reduce %i1 uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %sum = arith.addi %lhs, %rhs : i32
      gpu.yield %sum : i32
    } : (i32) -> (i32)
    // f32: t*0.5 - 3; 1.5, -2 at t = 1, 2; hash - 50.25
    %tf = arith.sitofp %ti : i32 to f32
    %fhalf = arith.constant 0.5 : f32
    %f3 = arith.constant 3.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f15 = arith.constant 1.5 : f32
    %fm2 = arith.constant -2.0 : f32
    %f5025 = arith.constant 50.25 : f32
    %fa0 = arith.mulf %tf, %fhalf : f32
    %flin = arith.subf %fa0, %f3 : f32
    %fm0 = arith.select %e2, %fm2, %f1 : f32
    %fmul = arith.select %e1, %f15, %fm0 : f32
    %hf = arith.sitofp %hash : i32 to f32
    %fh = arith.subf %hf, %f5025 : f32
    %fr0 = gpu.all_reduce add %flin {} : (f32) -> (f32)
    %fr1 = gpu.all_reduce mul %fmul uniform {} : (f32) -> (f32)
    %fr2 = gpu.all_reduce minnumf %fh {} : (f32) -> (f32)
    %fr3 = gpu.all_reduce maxnumf %fh uniform {} : (f32) -> (f32)
    %fr4 = gpu.all_reduce minimumf %fh {} : (f32) -> (f32)
    %fr5 = gpu.all_reduce maximumf %fh uniform {} : (f32) -> (f32)
    scf.if %w0 {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c0, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c0, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c0, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c0, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c0, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c0, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c0, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c0, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c0, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c0, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c0, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c0, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c0, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c0, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c0, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c0, %fk5] : memref<2x6xf32>
    }
    scf.if %wl {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c1, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c1, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c1, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c1, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c1, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c1, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c1, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c1, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c1, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c1, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c1, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c1, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c1, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c1, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c1, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c1, %fk5] : memref<2x6xf32>
    }
    gpu.terminator
  }
  %pi = memref.cast %ires : memref<2x10xi32> to memref<*xi32>
  call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
  %pf = memref.cast %fres : memref<2x6xf32> to memref<*xf32>
  call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
  memref.dealloc %ires : memref<2x10xi32>
  memref.dealloc %fres : memref<2x6xf32>
  return
}

func.func @wg_100x1x1() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cx = arith.constant 100 : index
  %cy = arith.constant 1 : index
  %cz = arith.constant 1 : index
  %ires = memref.alloc() : memref<2x10xi32>
  %fres = memref.alloc() : memref<2x6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cx, %sy = %cy, %sz = %cz) {
    %tyx = arith.muli %ty, %sx : index
    %tzxy0 = arith.muli %tz, %sx : index
    %tzxy = arith.muli %tzxy0, %sy : index
    %t0 = arith.addi %tx, %tyx : index
    %t = arith.addi %t0, %tzxy : index
    %ti = arith.index_cast %t : index to i32
    %n0 = arith.muli %sx, %sy : index
    %n = arith.muli %n0, %sz : index
    %last = arith.subi %n, %c1 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    %islast = arith.cmpi eq, %t, %last : index
    %isb1 = arith.cmpi eq, %bx, %c1 : index
    %w0 = arith.andi %is0, %isb1 : i1
    %wl = arith.andi %islast, %isb1 : i1
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i20 = arith.constant 20 : i32
    %i37 = arith.constant 37 : i32
    %i11 = arith.constant 11 : i32
    %i101 = arith.constant 101 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %i50 = arith.constant 50 : i32
    // t*3 - 50
    %a0 = arith.muli %ti, %i3 : i32
    %lin = arith.subi %a0, %i50 : i32
    // 3, -2, 5 at t = 1, 2, 6; else 1
    %e1 = arith.cmpi eq, %ti, %i1 : i32
    %e2 = arith.cmpi eq, %ti, %i2 : i32
    %e6 = arith.cmpi eq, %ti, %i6 : i32
    %m0 = arith.select %e6, %i5, %i1 : i32
    %m1 = arith.select %e2, %im2, %m0 : i32
    %mulv = arith.select %e1, %i3, %m1 : i32
    // (t*37 + 11) % 101, and -1 at t = 3
    %h0 = arith.muli %ti, %i37 : i32
    %h1 = arith.addi %h0, %i11 : i32
    %hash = arith.remsi %h1, %i101 : i32
    %e3 = arith.cmpi eq, %ti, %i3 : i32
    %uv = arith.select %e3, %im1, %hash : i32
    // ~(1 << (t % 8)), 1 << (t % 20), t * 7
    %r8 = arith.remsi %ti, %i8 : i32
    %b8 = arith.shli %i1, %r8 : i32
    %andv = arith.xori %b8, %im1 : i32
    %r20 = arith.remsi %ti, %i20 : i32
    %orv = arith.shli %i1, %r20 : i32
    %xorv = arith.muli %ti, %i7 : i32
    %ir0 = gpu.all_reduce add %lin uniform {} : (i32) -> (i32)
    %ir1 = gpu.all_reduce mul %mulv {} : (i32) -> (i32)
    %ir2 = gpu.all_reduce minui %uv uniform {} : (i32) -> (i32)
    %ir3 = gpu.all_reduce minsi %lin {} : (i32) -> (i32)
    %ir4 = gpu.all_reduce maxui %uv uniform {} : (i32) -> (i32)
    %ir5 = gpu.all_reduce maxsi %lin {} : (i32) -> (i32)
    %ir6 = gpu.all_reduce and %andv uniform {} : (i32) -> (i32)
    %ir7 = gpu.all_reduce or %orv {} : (i32) -> (i32)
    %ir8 = gpu.all_reduce xor %xorv uniform {} : (i32) -> (i32)
    %ir9 = gpu.all_reduce %i1 uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %sum = arith.addi %lhs, %rhs : i32
      gpu.yield %sum : i32
    } : (i32) -> (i32)
    // f32: t*0.5 - 3; 1.5, -2 at t = 1, 2; hash - 50.25
    %tf = arith.sitofp %ti : i32 to f32
    %fhalf = arith.constant 0.5 : f32
    %f3 = arith.constant 3.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f15 = arith.constant 1.5 : f32
    %fm2 = arith.constant -2.0 : f32
    %f5025 = arith.constant 50.25 : f32
    %fa0 = arith.mulf %tf, %fhalf : f32
    %flin = arith.subf %fa0, %f3 : f32
    %fm0 = arith.select %e2, %fm2, %f1 : f32
    %fmul = arith.select %e1, %f15, %fm0 : f32
    %hf = arith.sitofp %hash : i32 to f32
    %fh = arith.subf %hf, %f5025 : f32
    %fr0 = gpu.all_reduce add %flin {} : (f32) -> (f32)
    %fr1 = gpu.all_reduce mul %fmul uniform {} : (f32) -> (f32)
    %fr2 = gpu.all_reduce minnumf %fh {} : (f32) -> (f32)
    %fr3 = gpu.all_reduce maxnumf %fh uniform {} : (f32) -> (f32)
    %fr4 = gpu.all_reduce minimumf %fh {} : (f32) -> (f32)
    %fr5 = gpu.all_reduce maximumf %fh uniform {} : (f32) -> (f32)
    scf.if %w0 {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c0, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c0, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c0, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c0, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c0, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c0, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c0, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c0, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c0, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c0, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c0, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c0, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c0, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c0, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c0, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c0, %fk5] : memref<2x6xf32>
    }
    scf.if %wl {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c1, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c1, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c1, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c1, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c1, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c1, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c1, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c1, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c1, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c1, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c1, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c1, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c1, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c1, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c1, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c1, %fk5] : memref<2x6xf32>
    }
    gpu.terminator
  }
  %pi = memref.cast %ires : memref<2x10xi32> to memref<*xi32>
  call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
  %pf = memref.cast %fres : memref<2x6xf32> to memref<*xf32>
  call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
  memref.dealloc %ires : memref<2x10xi32>
  memref.dealloc %fres : memref<2x6xf32>
  return
}

func.func @wg_16x4x4() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cx = arith.constant 16 : index
  %cy = arith.constant 4 : index
  %cz = arith.constant 4 : index
  %ires = memref.alloc() : memref<2x10xi32>
  %fres = memref.alloc() : memref<2x6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cx, %sy = %cy, %sz = %cz) {
    %tyx = arith.muli %ty, %sx : index
    %tzxy0 = arith.muli %tz, %sx : index
    %tzxy = arith.muli %tzxy0, %sy : index
    %t0 = arith.addi %tx, %tyx : index
    %t = arith.addi %t0, %tzxy : index
    %ti = arith.index_cast %t : index to i32
    %n0 = arith.muli %sx, %sy : index
    %n = arith.muli %n0, %sz : index
    %last = arith.subi %n, %c1 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    %islast = arith.cmpi eq, %t, %last : index
    %isb1 = arith.cmpi eq, %bx, %c1 : index
    %w0 = arith.andi %is0, %isb1 : i1
    %wl = arith.andi %islast, %isb1 : i1
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i20 = arith.constant 20 : i32
    %i37 = arith.constant 37 : i32
    %i11 = arith.constant 11 : i32
    %i101 = arith.constant 101 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %i50 = arith.constant 50 : i32
    // t*3 - 50
    %a0 = arith.muli %ti, %i3 : i32
    %lin = arith.subi %a0, %i50 : i32
    // 3, -2, 5 at t = 1, 2, 6; else 1
    %e1 = arith.cmpi eq, %ti, %i1 : i32
    %e2 = arith.cmpi eq, %ti, %i2 : i32
    %e6 = arith.cmpi eq, %ti, %i6 : i32
    %m0 = arith.select %e6, %i5, %i1 : i32
    %m1 = arith.select %e2, %im2, %m0 : i32
    %mulv = arith.select %e1, %i3, %m1 : i32
    // (t*37 + 11) % 101, and -1 at t = 3
    %h0 = arith.muli %ti, %i37 : i32
    %h1 = arith.addi %h0, %i11 : i32
    %hash = arith.remsi %h1, %i101 : i32
    %e3 = arith.cmpi eq, %ti, %i3 : i32
    %uv = arith.select %e3, %im1, %hash : i32
    // ~(1 << (t % 8)), 1 << (t % 20), t * 7
    %r8 = arith.remsi %ti, %i8 : i32
    %b8 = arith.shli %i1, %r8 : i32
    %andv = arith.xori %b8, %im1 : i32
    %r20 = arith.remsi %ti, %i20 : i32
    %orv = arith.shli %i1, %r20 : i32
    %xorv = arith.muli %ti, %i7 : i32
    %ir0 = gpu.all_reduce add %lin uniform {} : (i32) -> (i32)
    %ir1 = gpu.all_reduce mul %mulv {} : (i32) -> (i32)
    %ir2 = gpu.all_reduce minui %uv uniform {} : (i32) -> (i32)
    %ir3 = gpu.all_reduce minsi %lin {} : (i32) -> (i32)
    %ir4 = gpu.all_reduce maxui %uv uniform {} : (i32) -> (i32)
    %ir5 = gpu.all_reduce maxsi %lin {} : (i32) -> (i32)
    %ir6 = gpu.all_reduce and %andv uniform {} : (i32) -> (i32)
    %ir7 = gpu.all_reduce or %orv {} : (i32) -> (i32)
    %ir8 = gpu.all_reduce xor %xorv uniform {} : (i32) -> (i32)
    %ir9 = gpu.all_reduce %i1 uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %sum = arith.addi %lhs, %rhs : i32
      gpu.yield %sum : i32
    } : (i32) -> (i32)
    // f32: t*0.5 - 3; 1.5, -2 at t = 1, 2; hash - 50.25
    %tf = arith.sitofp %ti : i32 to f32
    %fhalf = arith.constant 0.5 : f32
    %f3 = arith.constant 3.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f15 = arith.constant 1.5 : f32
    %fm2 = arith.constant -2.0 : f32
    %f5025 = arith.constant 50.25 : f32
    %fa0 = arith.mulf %tf, %fhalf : f32
    %flin = arith.subf %fa0, %f3 : f32
    %fm0 = arith.select %e2, %fm2, %f1 : f32
    %fmul = arith.select %e1, %f15, %fm0 : f32
    %hf = arith.sitofp %hash : i32 to f32
    %fh = arith.subf %hf, %f5025 : f32
    %fr0 = gpu.all_reduce add %flin {} : (f32) -> (f32)
    %fr1 = gpu.all_reduce mul %fmul uniform {} : (f32) -> (f32)
    %fr2 = gpu.all_reduce minnumf %fh {} : (f32) -> (f32)
    %fr3 = gpu.all_reduce maxnumf %fh uniform {} : (f32) -> (f32)
    %fr4 = gpu.all_reduce minimumf %fh {} : (f32) -> (f32)
    %fr5 = gpu.all_reduce maximumf %fh uniform {} : (f32) -> (f32)
    scf.if %w0 {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c0, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c0, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c0, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c0, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c0, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c0, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c0, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c0, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c0, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c0, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c0, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c0, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c0, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c0, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c0, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c0, %fk5] : memref<2x6xf32>
    }
    scf.if %wl {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c1, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c1, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c1, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c1, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c1, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c1, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c1, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c1, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c1, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c1, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c1, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c1, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c1, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c1, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c1, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c1, %fk5] : memref<2x6xf32>
    }
    gpu.terminator
  }
  %pi = memref.cast %ires : memref<2x10xi32> to memref<*xi32>
  call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
  %pf = memref.cast %fres : memref<2x6xf32> to memref<*xf32>
  call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
  memref.dealloc %ires : memref<2x10xi32>
  memref.dealloc %fres : memref<2x6xf32>
  return
}

func.func @wg_1024x1x1() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cx = arith.constant 1024 : index
  %cy = arith.constant 1 : index
  %cz = arith.constant 1 : index
  %ires = memref.alloc() : memref<2x10xi32>
  %fres = memref.alloc() : memref<2x6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cx, %sy = %cy, %sz = %cz) {
    %tyx = arith.muli %ty, %sx : index
    %tzxy0 = arith.muli %tz, %sx : index
    %tzxy = arith.muli %tzxy0, %sy : index
    %t0 = arith.addi %tx, %tyx : index
    %t = arith.addi %t0, %tzxy : index
    %ti = arith.index_cast %t : index to i32
    %n0 = arith.muli %sx, %sy : index
    %n = arith.muli %n0, %sz : index
    %last = arith.subi %n, %c1 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    %islast = arith.cmpi eq, %t, %last : index
    %isb1 = arith.cmpi eq, %bx, %c1 : index
    %w0 = arith.andi %is0, %isb1 : i1
    %wl = arith.andi %islast, %isb1 : i1
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i20 = arith.constant 20 : i32
    %i37 = arith.constant 37 : i32
    %i11 = arith.constant 11 : i32
    %i101 = arith.constant 101 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %i50 = arith.constant 50 : i32
    // t*3 - 50
    %a0 = arith.muli %ti, %i3 : i32
    %lin = arith.subi %a0, %i50 : i32
    // 3, -2, 5 at t = 1, 2, 6; else 1
    %e1 = arith.cmpi eq, %ti, %i1 : i32
    %e2 = arith.cmpi eq, %ti, %i2 : i32
    %e6 = arith.cmpi eq, %ti, %i6 : i32
    %m0 = arith.select %e6, %i5, %i1 : i32
    %m1 = arith.select %e2, %im2, %m0 : i32
    %mulv = arith.select %e1, %i3, %m1 : i32
    // (t*37 + 11) % 101, and -1 at t = 3
    %h0 = arith.muli %ti, %i37 : i32
    %h1 = arith.addi %h0, %i11 : i32
    %hash = arith.remsi %h1, %i101 : i32
    %e3 = arith.cmpi eq, %ti, %i3 : i32
    %uv = arith.select %e3, %im1, %hash : i32
    // ~(1 << (t % 8)), 1 << (t % 20), t * 7
    %r8 = arith.remsi %ti, %i8 : i32
    %b8 = arith.shli %i1, %r8 : i32
    %andv = arith.xori %b8, %im1 : i32
    %r20 = arith.remsi %ti, %i20 : i32
    %orv = arith.shli %i1, %r20 : i32
    %xorv = arith.muli %ti, %i7 : i32
    %ir0 = gpu.all_reduce add %lin uniform {} : (i32) -> (i32)
    %ir1 = gpu.all_reduce mul %mulv {} : (i32) -> (i32)
    %ir2 = gpu.all_reduce minui %uv uniform {} : (i32) -> (i32)
    %ir3 = gpu.all_reduce minsi %lin {} : (i32) -> (i32)
    %ir4 = gpu.all_reduce maxui %uv uniform {} : (i32) -> (i32)
    %ir5 = gpu.all_reduce maxsi %lin {} : (i32) -> (i32)
    %ir6 = gpu.all_reduce and %andv uniform {} : (i32) -> (i32)
    %ir7 = gpu.all_reduce or %orv {} : (i32) -> (i32)
    %ir8 = gpu.all_reduce xor %xorv uniform {} : (i32) -> (i32)
    %ir9 = gpu.all_reduce %i1 uniform {
    ^bb(%lhs : i32, %rhs : i32):
      %sum = arith.addi %lhs, %rhs : i32
      gpu.yield %sum : i32
    } : (i32) -> (i32)
    // f32: t*0.5 - 3; 1.5, -2 at t = 1, 2; hash - 50.25
    %tf = arith.sitofp %ti : i32 to f32
    %fhalf = arith.constant 0.5 : f32
    %f3 = arith.constant 3.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f15 = arith.constant 1.5 : f32
    %fm2 = arith.constant -2.0 : f32
    %f5025 = arith.constant 50.25 : f32
    %fa0 = arith.mulf %tf, %fhalf : f32
    %flin = arith.subf %fa0, %f3 : f32
    %fm0 = arith.select %e2, %fm2, %f1 : f32
    %fmul = arith.select %e1, %f15, %fm0 : f32
    %hf = arith.sitofp %hash : i32 to f32
    %fh = arith.subf %hf, %f5025 : f32
    %fr0 = gpu.all_reduce add %flin {} : (f32) -> (f32)
    %fr1 = gpu.all_reduce mul %fmul uniform {} : (f32) -> (f32)
    %fr2 = gpu.all_reduce minnumf %fh {} : (f32) -> (f32)
    %fr3 = gpu.all_reduce maxnumf %fh uniform {} : (f32) -> (f32)
    %fr4 = gpu.all_reduce minimumf %fh {} : (f32) -> (f32)
    %fr5 = gpu.all_reduce maximumf %fh uniform {} : (f32) -> (f32)
    scf.if %w0 {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c0, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c0, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c0, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c0, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c0, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c0, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c0, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c0, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c0, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c0, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c0, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c0, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c0, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c0, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c0, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c0, %fk5] : memref<2x6xf32>
    }
    scf.if %wl {
      %ik0 = arith.constant 0 : index
      memref.store %ir0, %ires[%c1, %ik0] : memref<2x10xi32>
      %ik1 = arith.constant 1 : index
      memref.store %ir1, %ires[%c1, %ik1] : memref<2x10xi32>
      %ik2 = arith.constant 2 : index
      memref.store %ir2, %ires[%c1, %ik2] : memref<2x10xi32>
      %ik3 = arith.constant 3 : index
      memref.store %ir3, %ires[%c1, %ik3] : memref<2x10xi32>
      %ik4 = arith.constant 4 : index
      memref.store %ir4, %ires[%c1, %ik4] : memref<2x10xi32>
      %ik5 = arith.constant 5 : index
      memref.store %ir5, %ires[%c1, %ik5] : memref<2x10xi32>
      %ik6 = arith.constant 6 : index
      memref.store %ir6, %ires[%c1, %ik6] : memref<2x10xi32>
      %ik7 = arith.constant 7 : index
      memref.store %ir7, %ires[%c1, %ik7] : memref<2x10xi32>
      %ik8 = arith.constant 8 : index
      memref.store %ir8, %ires[%c1, %ik8] : memref<2x10xi32>
      %ik9 = arith.constant 9 : index
      memref.store %ir9, %ires[%c1, %ik9] : memref<2x10xi32>
      %fk0 = arith.constant 0 : index
      memref.store %fr0, %fres[%c1, %fk0] : memref<2x6xf32>
      %fk1 = arith.constant 1 : index
      memref.store %fr1, %fres[%c1, %fk1] : memref<2x6xf32>
      %fk2 = arith.constant 2 : index
      memref.store %fr2, %fres[%c1, %fk2] : memref<2x6xf32>
      %fk3 = arith.constant 3 : index
      memref.store %fr3, %fres[%c1, %fk3] : memref<2x6xf32>
      %fk4 = arith.constant 4 : index
      memref.store %fr4, %fres[%c1, %fk4] : memref<2x6xf32>
      %fk5 = arith.constant 5 : index
      memref.store %fr5, %fres[%c1, %fk5] : memref<2x6xf32>
    }
    gpu.terminator
  }
  %pi = memref.cast %ires : memref<2x10xi32> to memref<*xi32>
  call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
  %pf = memref.cast %fres : memref<2x6xf32> to memref<*xf32>
  call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
  memref.dealloc %ires : memref<2x10xi32>
  memref.dealloc %fres : memref<2x6xf32>
  return
}

func.func @main() {
  call @wg_1x1x1() : () -> ()
  call @wg_7x1x1() : () -> ()
  call @wg_32x2x1() : () -> ()
  call @wg_100x1x1() : () -> ()
  call @wg_16x4x4() : () -> ()
  call @wg_1024x1x1() : () -> ()
  return
}
