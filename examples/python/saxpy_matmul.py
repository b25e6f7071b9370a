#!/usr/bin/env python3
"""saxpy and a tiled matmul, compiled with Kiln and checked with numpy.

    PYTHONPATH=build/python python3 examples/python/saxpy_matmul.py
    PYTHONPATH=build/python python3 examples/python/saxpy_matmul.py --target=spirv-cpu

saxpy is a host function whose gpu.launch Kiln outlines; it is called on
numpy arrays, which it updates in place. The matmul is an outlined kernel
(gpu.module @kernels) launched directly, numba-style, on device arrays, with
16 x 16 tiles of A and B staged in workgroup memory; kiln.timing() reports
its GPU time.
"""

import argparse
import sys

import numpy as np

import kiln

TILE = 16

SOURCE = """
module attributes {gpu.container_module} {
  // y = a * x + y, 64 threads a block.
  func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %axi = arith.mulf %a, %xi : f32
        %r = arith.addf %axi, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }

  gpu.module @kernels {
    // C = A B for A (M x K), B (K x N): one 16 x 16 tile of C a block, one
    // element a thread; the K dimension in steps of 16, each step's tiles
    // of A and B loaded into workgroup memory by the block's threads (zero
    // outside the matrices) between two barriers.
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                     %C: memref<?x?xf32>)
        workgroup(%tileA: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tileB: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {spirv.entry_point_abi =
            #spirv.entry_point_abi<workgroup_size = [16, 16, 1]>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %M = memref.dim %A, %c0 : memref<?x?xf32>
      %K = memref.dim %A, %c1 : memref<?x?xf32>
      %N = memref.dim %B, %c1 : memref<?x?xf32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c16 : index
      %col0 = arith.muli %bx, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col = arith.addi %col0, %tx : index
      %sum = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %zero) -> f32 {
        // tileA[ty][tx] = A[row][k0 + tx], tileB[ty][tx] = B[k0 + ty][col].
        %ka = arith.addi %k0, %tx : index
        %rowIn = arith.cmpi ult, %row, %M : index
        %kaIn = arith.cmpi ult, %ka, %K : index
        %aIn = arith.andi %rowIn, %kaIn : i1
        %a = scf.if %aIn -> f32 {
          %v = memref.load %A[%row, %ka] : memref<?x?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %a, %tileA[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %kbIn = arith.cmpi ult, %kb, %K : index
        %colIn = arith.cmpi ult, %col, %N : index
        %bIn = arith.andi %kbIn, %colIn : i1
        %b = scf.if %bIn -> f32 {
          %v = memref.load %B[%kb, %col] : memref<?x?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %b, %tileB[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %acc) -> f32 {
          %x = memref.load %tileA[%ty, %k]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tileB[%k, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %r = math.fma %x, %y, %p : f32
          scf.yield %r : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      %rowIn = arith.cmpi ult, %row, %M : index
      %colIn = arith.cmpi ult, %col, %N : index
      %inside = arith.andi %rowIn, %colIn : i1
      scf.if %inside {
        memref.store %sum, %C[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="vulkan",
                        help="vulkan (default), cuda or spirv-cpu")
    args = parser.parse_args()
    try:
        prog = kiln.compile(SOURCE, args.target, name="saxpy_matmul")
    except ValueError as error:
        sys.exit(f"saxpy_matmul.py: {error}")
    print(f"{args.target}: {kiln.devices(args.target)[0]}")

    # saxpy on numpy arrays: y is updated in place.
    rng = np.random.default_rng(0)
    x = rng.standard_normal(100_000, dtype=np.float32)
    y = rng.standard_normal(100_000, dtype=np.float32)
    expected = 2.5 * x + y
    prog.saxpy(2.5, x, y)
    np.testing.assert_allclose(y, expected, rtol=1e-6, atol=1e-6)
    print("saxpy: ok")

    # The tiled matmul on device arrays, sizes that are not multiples of
    # the tile.
    M, K, N = 200, 150, 130
    a = rng.standard_normal((M, K), dtype=np.float32)
    b = rng.standard_normal((K, N), dtype=np.float32)
    da, db = kiln.to_device(a, args.target), kiln.to_device(b, args.target)
    dc = kiln.to_device(np.zeros((M, N), dtype=np.float32), args.target)
    matmul = prog.kernel("kernels", "matmul")
    grid = ((N + TILE - 1) // TILE, (M + TILE - 1) // TILE)
    with kiln.timing() as t:
        matmul[grid, (TILE, TILE)](da, db, dc)
    c = dc.numpy()
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    gpu_us = sum(launch.gpu_us for launch in t.launches)
    print(f"matmul: ok ({M}x{K} by {K}x{N}, {gpu_us:.0f} us on the device)")


if __name__ == "__main__":
    main()
