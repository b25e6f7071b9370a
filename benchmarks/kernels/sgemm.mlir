// SGEMM, C = A * B for N x N row-major f32 matrices (N a multiple of 64),
// three ways:
//   naive        one element of C per invocation, A and B read from memory;
//   tiled        16 x 16 tiles of A and B staged through workgroup memory;
//   register     64 x 64 tiles of C per workgroup of 16 x 16 invocations,
//                4 x 4 elements per invocation held in registers, 16-deep
//                slices of A (stored transposed) and B in workgroup memory.
// The register-tiled kernel's 16-step inner loop is unrolled, as the
// references ask with `#pragma unroll` (CUDA) and `[[unroll]]` (GLSL).
#unroll = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>

gpu.module @sgemm {
  gpu.func @naive(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>)
      kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %A, %c0 : memref<?x?xf32>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %r0 = arith.muli %by, %c16 : index
    %row = arith.addi %r0, %ty : index
    %c0_ = arith.muli %bx, %c16 : index
    %col = arith.addi %c0_, %tx : index
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
      %a = memref.load %A[%row, %k] : memref<?x?xf32>
      %b = memref.load %B[%k, %col] : memref<?x?xf32>
      %t = math.fma %a, %b, %s : f32
      scf.yield %t : f32
    }
    memref.store %acc, %C[%row, %col] : memref<?x?xf32>
    gpu.return
  }

  gpu.func @tiled(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>)
      workgroup(%As: memref<16x16xf32, #gpu.address_space<workgroup>>,
                %Bs: memref<16x16xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %A, %c0 : memref<?x?xf32>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %r0 = arith.muli %by, %c16 : index
    %row = arith.addi %r0, %ty : index
    %c0_ = arith.muli %bx, %c16 : index
    %col = arith.addi %c0_, %tx : index
    %acc = scf.for %t = %c0 to %n step %c16 iter_args(%s = %zero) -> (f32) {
      %ak = arith.addi %t, %tx : index
      %a = memref.load %A[%row, %ak] : memref<?x?xf32>
      memref.store %a, %As[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %bk = arith.addi %t, %ty : index
      %b = memref.load %B[%bk, %col] : memref<?x?xf32>
      memref.store %b, %Bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %s) -> (f32) {
        %x = memref.load %As[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %y = memref.load %Bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %q = math.fma %x, %y, %p : f32
        scf.yield %q : f32
      }
      gpu.barrier
      scf.yield %part : f32
    }
    memref.store %acc, %C[%row, %col] : memref<?x?xf32>
    gpu.return
  }

  gpu.func @register(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>)
      workgroup(%As: memref<16x64xf32, #gpu.address_space<workgroup>>,
                %Bs: memref<16x64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %n = memref.dim %A, %c0 : memref<?x?xf32>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %m0 = arith.muli %by, %c64 : index
    %n0 = arith.muli %bx, %c64 : index
    %ty16 = arith.muli %ty, %c16 : index
    %t = arith.addi %ty16, %tx : index
    // Each invocation stages 4 consecutive elements of A and of B per slice,
    // with one 16-byte load each: N is a multiple of 64 and the columns
    // multiples of 4, so the loads are 16-byte aligned and say so (as the
    // CUDA reference's float4 casts do), which makes them ld.global.v4 in
    // PTX and loads of a vec4 buffer in SPIR-V.
    %aRow = arith.divui %t, %c4 : index
    %aQuad = arith.remui %t, %c4 : index
    %aCol = arith.muli %aQuad, %c4 : index
    %aCol1 = arith.addi %aCol, %c1 : index
    %aCol2 = arith.addi %aCol, %c2 : index
    %aCol3 = arith.addi %aCol, %c3 : index
    %bRow = arith.divui %t, %c16 : index
    %bQuad = arith.remui %t, %c16 : index
    %bCol = arith.muli %bQuad, %c4 : index
    %gaRow = arith.addi %m0, %aRow : index
    %gbCol = arith.addi %n0, %bCol : index
    %ty4 = arith.muli %ty, %c4 : index
    %tx4 = arith.muli %tx, %c4 : index
    %acc:4 = scf.for %k0 = %c0 to %n step %c16
        iter_args(%v0 = %zero, %v1 = %zero, %v2 = %zero, %v3 = %zero)
        -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
      %gaCol = arith.addi %k0, %aCol : index
      %av = vector.load %A[%gaRow, %gaCol] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
      %a0 = vector.extract %av[0] : f32 from vector<4xf32>
      %a1 = vector.extract %av[1] : f32 from vector<4xf32>
      %a2 = vector.extract %av[2] : f32 from vector<4xf32>
      %a3 = vector.extract %av[3] : f32 from vector<4xf32>
      memref.store %a0, %As[%aCol, %aRow] : memref<16x64xf32, #gpu.address_space<workgroup>>
      memref.store %a1, %As[%aCol1, %aRow] : memref<16x64xf32, #gpu.address_space<workgroup>>
      memref.store %a2, %As[%aCol2, %aRow] : memref<16x64xf32, #gpu.address_space<workgroup>>
      memref.store %a3, %As[%aCol3, %aRow] : memref<16x64xf32, #gpu.address_space<workgroup>>
      %gbRow = arith.addi %k0, %bRow : index
      %bv = vector.load %B[%gbRow, %gbCol] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
      vector.store %bv, %Bs[%bRow, %bCol] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %r:4 = scf.for %k = %c0 to %c16 step %c1
          iter_args(%w0 = %v0, %w1 = %v1, %w2 = %v2, %w3 = %v3)
          -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        %a = vector.load %As[%k, %ty4] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b = vector.load %Bs[%k, %tx4] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %e0 = vector.extract %a[0] : f32 from vector<4xf32>
        %e1 = vector.extract %a[1] : f32 from vector<4xf32>
        %e2 = vector.extract %a[2] : f32 from vector<4xf32>
        %e3 = vector.extract %a[3] : f32 from vector<4xf32>
        %s0 = vector.broadcast %e0 : f32 to vector<4xf32>
        %s1 = vector.broadcast %e1 : f32 to vector<4xf32>
        %s2 = vector.broadcast %e2 : f32 to vector<4xf32>
        %s3 = vector.broadcast %e3 : f32 to vector<4xf32>
        %u0 = vector.fma %s0, %b, %w0 : vector<4xf32>
        %u1 = vector.fma %s1, %b, %w1 : vector<4xf32>
        %u2 = vector.fma %s2, %b, %w2 : vector<4xf32>
        %u3 = vector.fma %s3, %b, %w3 : vector<4xf32>
        scf.yield %u0, %u1, %u2, %u3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      } {loop_annotation = #unroll}
      gpu.barrier
      scf.yield %r#0, %r#1, %r#2, %r#3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
    }
    %row0 = arith.addi %m0, %ty4 : index
    %row1 = arith.addi %row0, %c1 : index
    %row2 = arith.addi %row0, %c2 : index
    %row3 = arith.addi %row0, %c3 : index
    %col = arith.addi %n0, %tx4 : index
    vector.store %acc#0, %C[%row0, %col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
    vector.store %acc#1, %C[%row1, %col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
    vector.store %acc#2, %C[%row2, %col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
    vector.store %acc#3, %C[%row3, %col] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
    gpu.return
  }
}
