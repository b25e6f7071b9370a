"""numpy arrays as memref arguments: every dtype, ranks 0-4, dynamic and
static shapes, strided views, in-place updates and the arguments refused."""

import numpy as np
import pytest

import kiln
import support

# Every dtype an array may have, with the kernel's element type.
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32,
          np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def sample(dtype, n):
    """n values of `dtype` that exercise its range: negatives for signed
    types, values near the top for unsigned ones (so that 2 x + 1 wraps)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (np.linspace(-3.0, 5.0, n) * 1.25).astype(dtype)
    low, high = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    return np.array([low + (high - low) * k // (n - 1) for k in range(n)],
                    dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype(target, dtype):
    """y = 2 x + 1 in a kernel, for each element type (integers wrap)."""
    prog = support.program(support.twice_plus_one(support.mlir_type(dtype)),
                           target)
    x = sample(dtype, 150)
    y = np.zeros_like(x)
    assert prog.twice_plus_one(x, y) is None
    with np.errstate(over="ignore"):
        expected = (x + x + np.array(1, dtype=dtype)).astype(dtype)
    np.testing.assert_array_equal(y, expected)


BOOL_NOT = """
func.func @negate(%x: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %n = memref.dim %x, %c0 : memref<?xi1>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xi1>
    %r = arith.xori %v, %true : i1
    memref.store %r, %x[%i] : memref<?xi1>
  }
  return
}
"""


def test_bool_arrays(target):
    """bool arrays are i1 memrefs (host code: Vulkan storage buffers cannot
    hold i1, see test_errors)."""
    prog = support.program(BOOL_NOT, target)
    x = np.array([True, False, False, True, True])
    prog.negate(x)
    np.testing.assert_array_equal(x, [False, True, True, False, False])


SHAPES = {0: (), 1: (7,), 2: (3, 5), 3: (2, 3, 4), 4: (2, 3, 2, 5)}


@pytest.mark.parametrize("rank", sorted(SHAPES))
def test_ranks(target, rank):
    """Ranks 0-4 with dynamic sizes, updated in place: the kernel's writes
    land in the caller's array."""
    prog = support.program(support.scale_in_place(rank), target)
    x = np.arange(int(np.prod(SHAPES[rank])), dtype=np.float32).reshape(
        SHAPES[rank])
    before = x.copy()
    prog.scale(x)
    np.testing.assert_array_equal(x, 2 * before + 1)


def test_rank0_numpy_scalar_array(target):
    """A 0-d array is a memref<f32>; its one element is written back."""
    prog = support.program(support.scale_in_place(0), target)
    x = np.array(3.5, dtype=np.float32)
    prog.scale(x)
    assert x[()] == 8.0


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (3, 7), (33, 64)])
def test_dynamic_shapes(target, shape):
    """One program, called with several shapes."""
    prog = support.program(support.scale_in_place(2), target)
    x = np.full(shape, 2.0, dtype=np.float32)
    prog.scale(x)
    np.testing.assert_array_equal(x, np.full(shape, 5.0, dtype=np.float32))


def test_static_shape_checked(target):
    """A memref<4x5xf32> takes a 4x5 array, and refuses a 5x4 one."""
    prog = support.program(support.scale_in_place(2, shape=(4, 5)), target)
    x = np.ones((4, 5), dtype=np.float32)
    prog.scale(x)
    np.testing.assert_array_equal(x, np.full((4, 5), 3.0, dtype=np.float32))
    with pytest.raises(ValueError):
        prog.scale(np.ones((5, 4), dtype=np.float32))


def test_mixed_static_dynamic_shape(target):
    prog = support.program(support.scale_in_place(2, shape=(3, "?")), target)
    x = np.zeros((3, 9), dtype=np.float32)
    prog.scale(x)
    np.testing.assert_array_equal(x, np.ones((3, 9), dtype=np.float32))
    with pytest.raises(ValueError):
        prog.scale(np.zeros((4, 9), dtype=np.float32))


STRIDED = ", strided<[?, ?], offset: ?>"


# Views a strided memref describes, each made from its base array.
VIEWS = {
    "every_other_row": lambda a: a[::2],
    "columns_step_3": lambda a: a[:, 1::3],
    "transposed": lambda a: a.T,
    "window": lambda a: a[1:4, 2:7],
    "window_strided": lambda a: a[1::3, 2::2],
}


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_strided_views(target, view):
    """A non-contiguous view passes its strides and offset: the kernel
    updates exactly the view's elements of the base array."""
    prog = support.program(support.scale_in_place(2, layout=STRIDED), target)
    make = VIEWS[view]
    base = np.arange(8 * 10, dtype=np.float32).reshape(8, 10)
    expected = base.copy()
    window = make(expected)
    window *= 2
    window += 1
    prog.scale(make(base))
    np.testing.assert_array_equal(base, expected)


def test_strided_view_1d(target):
    prog = support.program(support.scale_in_place(
        1, layout=", strided<[?], offset: ?>"), target)
    base = np.arange(20, dtype=np.float32)
    expected = base.copy()
    expected[3::4] = 2 * expected[3::4] + 1
    prog.scale(base[3::4])
    np.testing.assert_array_equal(base, expected)


def test_strided_view_4d(target):
    prog = support.program(support.scale_in_place(
        4, layout=", strided<[?, ?, ?, ?], offset: ?>"), target)
    base = np.arange(4 * 5 * 6 * 7, dtype=np.float32).reshape(4, 5, 6, 7)
    expected = base.copy()
    view = expected[1:, ::2, 1:5, ::3]
    view *= 2
    view += 1
    prog.scale(base[1:, ::2, 1:5, ::3])
    np.testing.assert_array_equal(base, expected)


def test_non_contiguous_to_identity_layout(target):
    """A view an identity-layout memref cannot describe is either refused
    with an error saying so, or copied in and back out; never read as if it
    were contiguous."""
    prog = support.program(support.scale_in_place(2), target)
    base = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    expected = base.copy()
    expected[:, ::2] = 2 * expected[:, ::2] + 1
    try:
        prog.scale(base[:, ::2])
    except ValueError as error:
        assert "contiguous" in str(error)
        np.testing.assert_array_equal(
            base, np.arange(6 * 8, dtype=np.float32).reshape(6, 8))
    else:
        np.testing.assert_array_equal(base, expected)


def test_negative_strides_refused(target):
    """x[::-1] cannot be a memref: a ValueError saying why and what to do,
    and the array is untouched."""
    prog = support.program(support.scale_in_place(1, layout=
                                                  ", strided<[?], offset: ?>"),
                           target)
    x = np.arange(10, dtype=np.float32)
    with pytest.raises(ValueError) as error:
        prog.scale(x[::-1])
    message = str(error.value)
    assert "negative" in message.lower(), message
    assert "ascontiguousarray" in message or "copy" in message, message
    np.testing.assert_array_equal(x, np.arange(10, dtype=np.float32))


def test_stride_not_multiple_of_itemsize_refused(target):
    """A field of a structured array has a byte stride that is not a whole
    number of elements."""
    prog = support.program(support.scale_in_place(
        1, layout=", strided<[?], offset: ?>"), target)
    records = np.zeros(8, dtype=[("a", np.float32), ("b", np.int16)])
    with pytest.raises(ValueError):
        prog.scale(records["a"])


def test_wrong_dtype_refused(target):
    prog = support.program(support.scale_in_place(1), target)
    for wrong in (np.zeros(4, dtype=np.float64), np.zeros(4, dtype=np.int32)):
        with pytest.raises((TypeError, ValueError), match="f32|float32"):
            prog.scale(wrong)


def test_wrong_rank_refused(target):
    prog = support.program(support.scale_in_place(2), target)
    with pytest.raises((TypeError, ValueError), match="rank|dimension"):
        prog.scale(np.zeros(4, dtype=np.float32))


def test_wrong_argument_count(target):
    prog = support.program(support.scale_in_place(1), target)
    with pytest.raises(TypeError):
        prog.scale()
    with pytest.raises(TypeError):
        prog.scale(np.zeros(4, dtype=np.float32), np.zeros(4,
                                                           dtype=np.float32))


def test_not_an_array(target):
    prog = support.program(support.scale_in_place(1), target)
    with pytest.raises(TypeError):
        prog.scale("not an array")
    with pytest.raises(TypeError):
        prog.scale(1.0)


def test_read_only_array_refused(target):
    """The callee may write any memref, so a read-only array is refused
    rather than written behind numpy's back."""
    prog = support.program(support.scale_in_place(1), target)
    x = np.zeros(4, dtype=np.float32)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="writ"):
        prog.scale(x)
    np.testing.assert_array_equal(x, np.zeros(4, dtype=np.float32))


def test_large_array(target):
    """A million elements through the saxpy kernel."""
    prog = support.program(support.SAXPY, target)
    x = np.arange(1 << 20, dtype=np.float32)
    y = np.ones(1 << 20, dtype=np.float32)
    prog.saxpy(0.5, x, y)
    np.testing.assert_array_equal(y, 0.5 * np.arange(1 << 20,
                                                     dtype=np.float32) + 1)
