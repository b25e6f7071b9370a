// The entry point's result: printed as kiln-vulkan-runner prints it, and an
// integer result is the exit status (modulo 256).
// RUN: kiln-compile %s --emit=exe -e answer -o %t.i32
// RUN: %python -c "import subprocess, sys; r = subprocess.run([sys.argv[1]], stdout=subprocess.PIPE); sys.stdout.write(r.stdout.decode()); sys.exit(r.returncode != 42)" %t.i32 | FileCheck %s --check-prefix=I32
// RUN: kiln-compile %s --emit=exe -e big -o %t.i64
// RUN: %python -c "import subprocess, sys; r = subprocess.run([sys.argv[1]], stdout=subprocess.PIPE); sys.stdout.write(r.stdout.decode()); sys.exit(r.returncode != 0x2a)" %t.i64 | FileCheck %s --check-prefix=I64
// RUN: kiln-compile %s --emit=exe -e ratio -o %t.f32
// RUN: %t.f32 | FileCheck %s --check-prefix=F32
// RUN: kiln-compile %s --emit=exe -e answer --entry-point-result=i32 -o %t.checked
// RUN: not kiln-compile %s --emit=exe -e ratio --entry-point-result=i32 -o %t.bad 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not test -e %t.bad

// I32: {{^}}42{{$}}
// I64: {{^}}8589934634{{$}}
// F32: {{^}}2.500000e-01{{$}}
// MISMATCH: kiln-compile: error: entry point '@ratio' returns f32, not --entry-point-result=i32

module attributes {gpu.container_module} {
  // 42, computed on the device.
  func.func @answer() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = memref.alloc() : memref<1xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %six = arith.constant 6 : i32
      %seven = arith.constant 7 : i32
      %v = arith.muli %six, %seven : i32
      memref.store %v, %m[%c0] : memref<1xi32>
      gpu.terminator
    }
    %r = memref.load %m[%c0] : memref<1xi32>
    memref.dealloc %m : memref<1xi32>
    return %r : i32
  }
  // 2^33 + 42: the status is its low byte.
  func.func @big() -> i64 {
    %r = arith.constant 8589934634 : i64
    return %r : i64
  }
  func.func @ratio() -> f32 {
    %r = arith.constant 0.25 : f32
    return %r : f32
  }
}
