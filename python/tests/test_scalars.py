"""Scalars in and out: Python and numpy scalars as arguments (range-checked),
scalar and memref results, several results as a tuple."""

import math

import numpy as np
import pytest

import support

# Each scalar type reaches a kernel, which stores it into a one-element
# memref of its type (i1 as an i32: 1 or 0).
STORE_SCALARS = """
module attributes {gpu.container_module} {
  func.func @store(%a: i8, %b: i16, %c: i32, %d: i64, %e: f16, %f: f32,
                   %g: f64, %h: i1, %i: index,
                   %oa: memref<1xi8>, %ob: memref<1xi16>, %oc: memref<1xi32>,
                   %od: memref<1xi64>, %oe: memref<1xf16>, %of: memref<1xf32>,
                   %og: memref<1xf64>, %oh: memref<1xi32>,
                   %oi: memref<1xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %a, %oa[%c0] : memref<1xi8>
      memref.store %b, %ob[%c0] : memref<1xi16>
      memref.store %c, %oc[%c0] : memref<1xi32>
      memref.store %d, %od[%c0] : memref<1xi64>
      memref.store %e, %oe[%c0] : memref<1xf16>
      memref.store %f, %of[%c0] : memref<1xf32>
      memref.store %g, %og[%c0] : memref<1xf64>
      %hi = arith.extui %h : i1 to i32
      memref.store %hi, %oh[%c0] : memref<1xi32>
      %ii = arith.index_cast %i : index to i64
      memref.store %ii, %oi[%c0] : memref<1xi64>
      gpu.terminator
    }
    return
  }
}
"""

OUTPUT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.float16, np.float32,
                np.float64, np.int32, np.int64]


def run_store(target, *scalars):
    prog = support.program(STORE_SCALARS, target)
    outputs = [np.zeros(1, dtype=t) for t in OUTPUT_TYPES]
    prog.store(*scalars, *outputs)
    return [o[0] for o in outputs]


def test_python_scalars(target):
    got = run_store(target, -7, 300, -70000, 1 << 40, 1.5, 2.25, math.pi,
                    True, 12345)
    assert got == [-7, 300, -70000, 1 << 40, 1.5, 2.25, math.pi, 1, 12345]


def test_numpy_scalars(target):
    got = run_store(target, np.int8(-128), np.int16(32767), np.int32(-5),
                    np.int64(-(1 << 62)), np.float16(0.5), np.float32(0.1),
                    np.float64(1e300), np.bool_(False), np.int64(3))
    assert got[:4] == [-128, 32767, -5, -(1 << 62)]
    assert got[4] == np.float16(0.5)
    assert got[5] == np.float32(0.1)
    assert got[6] == 1e300
    assert got[7:] == [0, 3]


@pytest.mark.parametrize("position,value", [(0, 128), (0, -129), (1, 1 << 15),
                                            (2, 1 << 31), (3, 1 << 63),
                                            (3, -(1 << 63) - 1),
                                            (8, 1 << 63)])
def test_integer_out_of_range(target, position, value):
    """An integer the parameter's type cannot hold is an OverflowError or
    ValueError, not a silently truncated value."""
    scalars = [0, 0, 0, 0, 0.0, 0.0, 0.0, False, 0]
    scalars[position] = value
    with pytest.raises((OverflowError, ValueError)):
        run_store(target, *scalars)


def test_wrong_scalar_kind(target):
    """A float where an integer goes, or an array where a scalar goes."""
    with pytest.raises(TypeError):
        run_store(target, 1.5, 0, 0, 0, 0.0, 0.0, 0.0, False, 0)
    with pytest.raises(TypeError):
        run_store(target, np.zeros(1, dtype=np.int8), 0, 0, 0, 0.0, 0.0, 0.0,
                  False, 0)


RESULTS = """
func.func @scalars(%a: i32, %b: f64) -> (i32, f64, i1, index, i64, f32, f16,
                                         i8) {
  %c1 = arith.constant 1 : i32
  %a1 = arith.addi %a, %c1 : i32
  %b2 = arith.addf %b, %b : f64
  %zero = arith.constant 0 : i32
  %neg = arith.cmpi slt, %a, %zero : i32
  %ix = arith.index_cast %a : i32 to index
  %wide = arith.extsi %a : i32 to i64
  %big = arith.constant 4294967296 : i64
  %w = arith.muli %wide, %big : i64
  %f = arith.truncf %b : f64 to f32
  %h = arith.truncf %b : f64 to f16
  %t = arith.trunci %a : i32 to i8
  return %a1, %b2, %neg, %ix, %w, %f, %h, %t : i32, f64, i1, index, i64, f32,
                                               f16, i8
}

func.func @one(%a: f32) -> f32 {
  %r = arith.mulf %a, %a : f32
  return %r : f32
}

func.func @flag(%a: i1) -> i1 {
  %t = arith.constant true
  %r = arith.xori %a, %t : i1
  return %r : i1
}

func.func @iota(%n: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return %m : memref<?xf32>
}

func.func @table(%r: index, %c: index) -> (memref<?x?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %m = memref.alloc(%r, %c) : memref<?x?xi32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %t = arith.muli %i, %c10 : index
      %v = arith.addi %t, %j : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %m[%i, %j] : memref<?x?xi32>
    }
  }
  %n = arith.muli %r, %c : index
  %ni = arith.index_cast %n : index to i32
  return %m, %ni : memref<?x?xi32>, i32
}

func.func @fixed() -> memref<2x3xf64> {
  %m = memref.alloc() : memref<2x3xf64>
  %v = arith.constant 0.25 : f64
  linalg.fill ins(%v : f64) outs(%m : memref<2x3xf64>)
  return %m : memref<2x3xf64>
}
"""


def test_scalar_results(target):
    prog = support.program(RESULTS, target)
    got = prog.scalars(-3, 1.25)
    assert isinstance(got, tuple)
    assert got == (-2, 2.5, True, -3, -3 * (1 << 32), 1.25, 1.25, -3)
    assert isinstance(got[0], int) and isinstance(got[1], float)
    assert isinstance(got[2], bool)
    assert prog.scalars(5, 0.5)[2] is False


def test_one_result_is_not_a_tuple(target):
    prog = support.program(RESULTS, target)
    assert prog.one(3.0) == 9.0
    assert prog.flag(True) is False
    assert prog.flag(False) is True


def test_memref_result(target):
    prog = support.program(RESULTS, target)
    m = prog.iota(10)
    assert isinstance(m, np.ndarray)
    assert m.dtype == np.float32 and m.shape == (10,)
    np.testing.assert_array_equal(m, np.arange(10, dtype=np.float32))
    # Each call returns its own array.
    other = prog.iota(3)
    m[0] = 42
    np.testing.assert_array_equal(other, [0, 1, 2])


def test_memref_and_scalar_results(target):
    prog = support.program(RESULTS, target)
    m, n = prog.table(3, 4)
    assert n == 12
    assert m.dtype == np.int32 and m.shape == (3, 4)
    np.testing.assert_array_equal(
        m, np.add.outer(np.arange(3) * 10, np.arange(4)).astype(np.int32))


def test_static_memref_result(target):
    prog = support.program(RESULTS, target)
    m = prog.fixed()
    assert m.shape == (2, 3) and m.dtype == np.float64
    np.testing.assert_array_equal(m, np.full((2, 3), 0.25))


def test_results_outlive_program(target):
    """A returned array is the caller's: it stays valid once the program
    is gone."""
    import kiln
    prog = kiln.compile(RESULTS, target)
    m = prog.iota(1000)
    del prog
    import gc
    gc.collect()
    np.testing.assert_array_equal(m, np.arange(1000, dtype=np.float32))
