"""Between numpy and MLIR types: dtypes, scalars and memref descriptors.

A memref crosses as the LLVM dialect's descriptor, `allocated, aligned,
offset, sizes[rank], strides[rank]` (64-bit words; strides and offset in
elements), which is what `_mlir_ciface_` wrappers and kernel launches take.
"""

import numpy as np

# The numpy dtypes each MLIR element type takes. Signless integers take
# numpy's signed and unsigned integers of their width; index is the host's
# 64-bit integer.
_DTYPES = {
    "f16": (np.float16,),
    "f32": (np.float32,),
    "f64": (np.float64,),
    "i1": (np.bool_,),
    "i8": (np.int8, np.uint8),
    "i16": (np.int16, np.uint16),
    "i32": (np.int32, np.uint32),
    "i64": (np.int64, np.uint64),
    "si8": (np.int8,),
    "si16": (np.int16,),
    "si32": (np.int32,),
    "si64": (np.int64,),
    "ui8": (np.uint8,),
    "ui16": (np.uint16,),
    "ui32": (np.uint32,),
    "ui64": (np.uint64,),
    "index": (np.int64,),
}

# Bytes (and alignment) of each scalar type in host memory.
_SIZES = {
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "index": 8,
}


def scalar_size(element):
    """The bytes an element or scalar of MLIR type `element` takes."""
    if element in _SIZES:
        return _SIZES[element]
    bits = _int_bits(element)
    if bits is None:
        raise TypeError(f"{element} has no host representation kiln supports")
    return max(1, (bits + 7) // 8)


def _int_bits(element):
    for prefix in ("si", "ui", "i"):
        if element.startswith(prefix) and element[len(prefix):].isdigit():
            return int(element[len(prefix):])
    return None


def dtype_of(element):
    """The numpy dtype an MLIR element type reads as (its first one)."""
    if element == "bf16":
        raise TypeError("bf16 has no numpy dtype; pass the data as a "
                        "memref of f32 or i16 instead")
    if element not in _DTYPES:
        raise TypeError(f"memrefs of {element} are not supported (kiln "
                        f"supports f16, f32, f64, i1, i8-i64, ui8-ui64, "
                        f"si8-si64 and index)")
    return np.dtype(_DTYPES[element][0])


def accepts(element, dtype):
    """Whether an array of `dtype` may pass as a memref of `element`."""
    return any(np.dtype(d) == dtype for d in _DTYPES.get(element, ()))


def dtype_names(element):
    return " or ".join(np.dtype(d).name for d in _DTYPES.get(element, ()))


def address(array):
    """The address of a numpy array's first element."""
    return array.__array_interface__["data"][0]


def scalar_bytes(element, value, what):
    """`value` as a uint8 array holding MLIR scalar type `element`, checked.

    `what` names the value in errors ("argument 2 of @f").
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if element in ("f16", "bf16", "f32", "f64"):
        if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{what} is {element}: pass a float, not "
                            f"{type(value).__name__}")
        if element == "bf16":
            bits = np.array([value], np.float32).view(np.uint32)[0]
            if np.isnan(np.float32(value)):
                half = np.uint16(0x7FC0)
            else:
                rounding = 0x7FFF + ((int(bits) >> 16) & 1)
                half = np.uint16(((int(bits) + rounding) >> 16) & 0xFFFF)
            return np.array([half], np.uint16).view(np.uint8)
        dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
        with np.errstate(over="ignore"):
            return np.array([value], dtype[element]).view(np.uint8)
    if element == "i1":
        if isinstance(value, (bool, np.bool_)):
            return np.array([bool(value)], np.uint8)
        if isinstance(value, (int, np.integer)) and int(value) in (0, 1):
            return np.array([int(value)], np.uint8)
        raise TypeError(f"{what} is i1: pass a bool (or 0 or 1), not "
                        f"{value!r}")
    bits = 64 if element == "index" else _int_bits(element)
    if bits is None:
        raise TypeError(f"{what} has type {element}, which kiln cannot pass")
    if isinstance(value, (float, np.floating)) or not isinstance(
            value, (int, np.integer, bool, np.bool_)):
        raise TypeError(f"{what} is {element}: pass an int, not "
                        f"{type(value).__name__}")
    unsigned_numpy = isinstance(value, np.unsignedinteger)
    value = int(value)
    if element.startswith("ui") or (unsigned_numpy and bits > 1 and
                                    not element.startswith("si") and
                                    element != "index"):
        # Unsigned types, and a numpy unsigned integer for a signless one
        # (its bits as they are).
        low, high = 0, (1 << bits) - 1
    else:
        # Signed and signless types take the signed range, as MLIR prints
        # their constants.
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not low <= value <= high:
        hint = ""
        if low < 0 and 0 <= value < (1 << bits):
            hint = (f"; pass np.uint{bits}({value}) for its bits as an "
                    "unsigned value") if bits in (8, 16, 32, 64) else ""
        raise OverflowError(f"{what}: {value} does not fit in {element} "
                            f"({low} to {high}){hint}")
    size = scalar_size(element)
    return np.frombuffer(
        (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little"),
        np.uint8).copy()


def scalar_value(element, raw):
    """The Python value of MLIR scalar type `element` in bytes `raw`."""
    if element == "f16":
        return float(np.frombuffer(raw[:2], np.float16)[0])
    if element == "bf16":
        bits = int.from_bytes(bytes(raw[:2]), "little") << 16
        return float(np.array([bits], np.uint32).view(np.float32)[0])
    if element == "f32":
        return float(np.frombuffer(raw[:4], np.float32)[0])
    if element == "f64":
        return float(np.frombuffer(raw[:8], np.float64)[0])
    if element == "i1":
        return bool(raw[0] & 1)
    size = scalar_size(element)
    signed = not element.startswith("ui")
    return int.from_bytes(bytes(raw[:size]), "little", signed=signed)


def layout(types):
    """Offsets and total size of an LLVM struct of `types` (type dicts)."""
    offsets = []
    offset = 0
    align_max = 1
    for t in types:
        if t["kind"] == "memref":
            size, align = 8 * (3 + 2 * len(t["shape"])), 8
        else:
            size = scalar_size(t["element"])
            align = size
        offset = (offset + align - 1) // align * align
        offsets.append(offset)
        offset += size
        align_max = max(align_max, align)
    total = (offset + align_max - 1) // align_max * align_max
    return offsets, max(total, 8)
