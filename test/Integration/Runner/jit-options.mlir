// mlir-runner's options on Kiln's runners: -e picks the entry point, whose
// result is printed as mlir-runner prints it (with or without
// --entry-point-result), -O0..3, --shared-libs (a library already loaded
// is loaded once), --dump-object-file / --object-filename.
// RUN: kiln-vulkan-runner %s -e sum --entry-point-result=i64 -O3 | FileCheck %s --check-prefix=I64
// RUN: kiln-vulkan-runner %s -e sum | FileCheck %s --check-prefix=I64
// RUN: kiln-vulkan-runner %s -e half | FileCheck %s --check-prefix=F32
// RUN: kiln-vulkan-runner %s -e nothing --entry-point-result=void | FileCheck %s --check-prefix=VOID --allow-empty
// RUN: kiln-vulkan-runner %s -e sum --shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=I64
// RUN: rm -f %t.o && kiln-vulkan-runner %s -e sum --dump-object-file --object-filename=%t.o | FileCheck %s --check-prefix=I64
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1], 'rb').read(4) != b'\x7fELF')" %t.o

// I64: 120
// F32: 5.000000e-01
// VOID-NOT: {{.}}

func.func @sum() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m = gpu.alloc host_shared () : memref<16xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i64
    memref.store %v, %m[%tx] : memref<16xi64>
    gpu.terminator
  }
  %zero = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> i64 {
    %x = memref.load %m[%i] : memref<16xi64>
    %n = arith.addi %acc, %x : i64
    scf.yield %n : i64
  }
  gpu.dealloc %m : memref<16xi64>
  return %s : i64
}

func.func @half() -> f32 {
  %h = arith.constant 0.5 : f32
  return %h : f32
}

func.func @nothing() {
  return
}
