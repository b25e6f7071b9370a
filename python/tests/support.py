"""Helpers of Kiln's Python tests: the targets, the build's tools, and the
MLIR programs the tests generate."""

import functools
import os
import pathlib
import shutil

import numpy as np
import pytest

import kiln

TARGETS = ("spirv-cpu", "vulkan", "cuda")

# The command-line runner of each target, for the cross-checks.
RUNNERS = {
    "spirv-cpu": "kiln-spirv-cpu-runner",
    "vulkan": "kiln-vulkan-runner",
    "cuda": "kiln-cuda-runner",
}

REPO = pathlib.Path(__file__).resolve().parents[2]
INPUTS = pathlib.Path(__file__).resolve().parent / "inputs"

# numpy dtype -> the element type of the memref it passes as. Unsigned arrays
# pass as MLIR's signless integers of the same width, bool as i1.
MLIR_TYPES = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "i8",
    np.dtype(np.uint16): "i16",
    np.dtype(np.uint32): "i32",
    np.dtype(np.uint64): "i64",
    np.dtype(np.bool_): "i1",
}


def mlir_type(dtype):
    return MLIR_TYPES[np.dtype(dtype)]


@functools.lru_cache(maxsize=None)
def unavailable(target):
    """Why `target` cannot run here, or None when it has a device."""
    try:
        devices = kiln.devices(target)
    except Exception as error:  # The runtime's own reason, e.g. no libcuda.
        return f"{type(error).__name__}: {error}"
    if not devices:
        return "kiln.devices() lists no device"
    return None


@functools.lru_cache(maxsize=None)
def program(source, target, **options):
    """A compiled program, shared by the tests that only call it."""
    return kiln.compile(source, target, **options)


def build_dir():
    """The build (or install) tree whose bin/ holds Kiln's tools, or None."""
    if os.environ.get("KILN_BUILD_DIR"):
        return pathlib.Path(os.environ["KILN_BUILD_DIR"])
    package = pathlib.Path(kiln.__file__).resolve().parent
    # build/python/kiln and PREFIX/lib/python3/dist-packages/kiln.
    for root in (package.parents[1], package.parents[3]):
        if (root / "bin" / "kiln-vulkan-runner").exists():
            return root
    return None


def runner(target):
    """The path of `target`'s runner; skips, saying why, when there is none."""
    name = RUNNERS[target]
    root = build_dir()
    if root is not None:
        path = root / "bin" / name
        if path.exists():
            return str(path)
        if os.environ.get("KILN_BUILD_DIR"):
            pytest.fail(f"KILN_BUILD_DIR={root} has no bin/{name}")
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} not found: set KILN_BUILD_DIR to the build tree")
    return found


def tool_env():
    """The environment for Kiln's tools: without an LD_PRELOAD of the
    sanitizer runtime (the sanitizer build preloads it into the interpreter),
    which the tools, linked with their own, refuse."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def python_env():
    """The environment a child Python needs to import the same kiln."""
    env = dict(os.environ)
    package_root = str(pathlib.Path(kiln.__file__).resolve().parents[1])
    paths = [package_root] + [p for p in env.get("PYTHONPATH", "").split(
        os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


# --------------------------------------------------------------------------
# Programs.


def constant(value, ty):
    if ty.startswith("f"):
        return f"arith.constant {float(value)!r} : {ty}"
    if ty == "i1":
        return f"arith.constant {'true' if value else 'false'}"
    return f"arith.constant {int(value)} : {ty}"


def add(a, b, ty):
    op = "arith.addf" if ty.startswith("f") else "arith.addi"
    return f"{op} {a}, {b} : {ty}"


def twice_plus_one(ty):
    """@twice_plus_one(x, y: memref<?xTY>): y[i] = x[i] + x[i] + 1 in a
    kernel of 64 threads a block (integers wrap)."""
    return f"""
module attributes {{gpu.container_module}} {{
  func.func @twice_plus_one(%x: memref<?x{ty}>, %y: memref<?x{ty}>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %x, %c0 : memref<?x{ty}>
    %blocks = arith.ceildivui %n, %c64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {{
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {{
        %v = memref.load %x[%i] : memref<?x{ty}>
        %one = {constant(1, ty)}
        %two = {add("%v", "%v", ty)}
        %r = {add("%two", "%one", ty)}
        memref.store %r, %y[%i] : memref<?x{ty}>
      }}
      gpu.terminator
    }}
    return
  }}
}}
"""


def scale_in_place(rank, shape=None, layout=""):
    """@scale(x: memref<...xf32>): x = 2 x + 1 in place, one block per
    element of the first three dimensions, a loop over the fourth. `shape`
    gives static sizes (None: all dynamic); `layout` a memref layout such as
    ", strided<[?, ?], offset: ?>"."""
    dims = list(shape) if shape is not None else ["?"] * rank
    memref = "memref<" + "".join(f"{d}x" for d in dims) + "f32" + layout + ">"
    lines = ["    %c0 = arith.constant 0 : index",
             "    %c1 = arith.constant 1 : index"]
    for k in range(rank):
        lines.append(f"    %c{k}i = arith.constant {k} : index")
        lines.append(f"    %d{k} = memref.dim %x, %c{k}i : {memref}")
    grid = [f"%d{k}" if k < rank else "%c1" for k in range(3)]
    body = []
    index = ["%bx", "%by", "%bz"][:min(rank, 3)]
    element = []
    if rank == 4:
        body.append(f"      scf.for %l = %c0 to %d3 step %c1 {{")
        index.append("%l")
    pad = "        " if rank == 4 else "      "
    subscript = ", ".join(index)
    body += [
        f"{pad}%v = memref.load %x[{subscript}] : {memref}",
        f"{pad}%one = arith.constant 1.0 : f32",
        f"{pad}%two = arith.addf %v, %v : f32",
        f"{pad}%r = arith.addf %two, %one : f32",
        f"{pad}memref.store %r, %x[{subscript}] : {memref}",
    ]
    if rank == 4:
        body.append("      }")
    return f"""
module attributes {{gpu.container_module}} {{
  func.func @scale(%x: {memref}) {{
{chr(10).join(lines)}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = {grid[0]}, %gy = {grid[1]}, %gz = {grid[2]})
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {{
{chr(10).join(body)}
      gpu.terminator
    }}
    return
  }}
}}
"""


SAXPY = """
module attributes {gpu.container_module} {
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
}
"""

# An outlined kernel module for prog.kernel(): saxpy, whose block size (32)
# comes from its launch in @run_saxpy, and a 2-D kernel of 3x2 threads a
# block (its spirv.entry_point_abi: Vulkan kernels have a fixed block size),
# and SPIN's kernel.
OUTLINED = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %bd : index
      %i = arith.addi %base, %tx : index
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %axi = arith.mulf %a, %xi : f32
        %r = arith.addf %axi, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @fill2d(%m: memref<4x6xi32>, %k: i32) kernel attributes {
        spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [3, 2, 1]>} {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %r0 = arith.muli %by, %bdy : index
      %r = arith.addi %r0, %ty : index
      %c0 = arith.muli %bx, %bdx : index
      %c = arith.addi %c0, %tx : index
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %hundred = arith.constant 100 : i32
      %v0 = arith.muli %ri, %hundred : i32
      %v1 = arith.addi %v0, %ci : i32
      %v = arith.addi %v1, %k : i32
      memref.store %v, %m[%r, %c] : memref<4x6xi32>
      gpu.return
    }
    gpu.func @spin(%x: memref<?xf32>) kernel attributes {
        spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %bx, %c64 : index
      %i = arith.addi %base, %tx : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v0 = memref.load %x[%i] : memref<?xf32>
        %k = arith.constant 0.5 : f32
        %steps = arith.constant 50000 : index
        %r = scf.for %j = %c0 to %steps step %c1 iter_args(%acc = %v0)
            -> f32 {
          %m = arith.mulf %acc, %k : f32
          %a = arith.addf %m, %k : f32
          scf.yield %a : f32
        }
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @run_saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c32 : index
    gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1)
        threads in (%c32, %c1, %c1)
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}
"""

# A kernel that runs for a while, to see that a call releases the GIL: 64
# threads a block, one block per 64 elements of x, each thread 50000
# dependent steps that take its element to 1 (the fixed point of x / 2 +
# 1/2). Long runs come from many threads: lavapipe ends a loop after 65535
# iterations.
SPIN = """
module attributes {gpu.container_module} {
  func.func @spin(%x: memref<?xf32>) {
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
        %v0 = memref.load %x[%i] : memref<?xf32>
        %k = arith.constant 0.5 : f32
        %steps = arith.constant 50000 : index
        %r = scf.for %j = %c0 to %steps step %c1 iter_args(%acc = %v0)
            -> f32 {
          %m = arith.mulf %acc, %k : f32
          %a = arith.addf %m, %k : f32
          scf.yield %a : f32
        }
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }
}
"""

# gpu.set_default_device with the caller's index: past the program's device
# list it is a runtime error.
SWITCH_DEVICE = """
module attributes {gpu.container_module} {
  func.func @switch_device(%d: i32) {
    gpu.set_default_device %d
    return
  }
}
"""
