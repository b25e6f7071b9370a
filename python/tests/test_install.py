"""The installed package: `cmake --install` puts it under the prefix's
lib/python3/dist-packages (KILN_PYTHON_INSTALL_DIR), where it finds the
installed runtime libraries, and a program compiled there runs."""

import os
import shutil
import subprocess
import sys

import pytest

import support

PROGRAM = r'''
import sys
import numpy as np
import kiln
source = """
module attributes {gpu.container_module} {
  func.func @scale(%x: memref<?xf32>, %a: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%bx] : memref<?xf32>
      %w = arith.mulf %v, %a : f32
      memref.store %w, %x[%bx] : memref<?xf32>
      gpu.terminator
    }
    return
  }
}
"""
x = np.arange(5, dtype=np.float32)
kiln.compile(source, "spirv-cpu").scale(x, 3.0)
print(kiln.__file__)
print(x.tolist())
'''


def test_installed_package_runs(tmp_path):
    build = support.build_dir()
    cmake = shutil.which("cmake")
    if build is None or cmake is None or not (build / "CMakeCache.txt").exists():
        pytest.skip("no build tree and cmake to install from")
    prefix = tmp_path / "prefix"
    install = subprocess.run([cmake, "--install", str(build), "--prefix",
                              str(prefix)], capture_output=True, text=True,
                             env=support.tool_env(), timeout=600)
    assert install.returncode == 0, install.stderr
    site = prefix / "lib" / "python3" / "dist-packages"
    assert (site / "kiln" / "__init__.py").exists()
    env = support.python_env()
    # Only the installed package: not the build's.
    env["PYTHONPATH"] = str(site)
    env.pop("KILN_BUILD_DIR", None)
    run = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True,
                         text=True, env=env, cwd=str(tmp_path), timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(str(site)), lines
    assert lines[1] == "[0.0, 3.0, 6.0, 9.0, 12.0]", lines
