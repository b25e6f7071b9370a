// One program through every front door of the spirv-cpu target: the runner
// (also with one worker thread and with timing lines), kiln-opt's pipeline
// into upstream mlir-runner with the runtime as --shared-libs, and an
// executable from kiln-compile. A 160 MB buffer, past the 128 MiB a Vulkan
// descriptor reaches on most devices, is an ordinary descriptor here.
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s --cpu-threads=1 --print-timing 2>&1 | FileCheck %s --check-prefixes=CHECK,TIMING
// RUN: kiln-opt %s --kiln-gpu-to-spirv-cpu | %mlir_runner -e main --entry-point-result=void --shared-libs=%kiln_lib_dir/libkiln_spirv_cpu_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so | FileCheck %s
// RUN: kiln-compile %s --target=spirv-cpu --emit=exe -o %t.exe && %t.exe | FileCheck %s
// RUN: kiln-spirv-cpu-runner --list-devices | FileCheck %s --check-prefix=LIST
// RUN: kiln-spirv-cpu-runner --print-target-env | FileCheck %s --check-prefix=ENV

// TIMING: kiln-timing kernel=main_kernel gpu_us=
// CHECK: [1000,  1001,  1002,  1003]
// CHECK: [20000000,  20000001,  20000002,  20000003]
// CHECK: [39999996,  39999997,  39999998,  39999999]
// LIST: subgroup size: 8
// ENV: #spirv.target_env<{{.*}}subgroup_size = 8

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %blocks = arith.constant 625000 : index
  %buf = memref.alloc() : memref<40000000xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %ii = arith.index_cast %i : index to i32
    memref.store %ii, %buf[%i] : memref<40000000xi32>
    gpu.terminator
  }
  %c4 = arith.constant 4 : index
  %c1000 = arith.constant 1000 : index
  %c20000000 = arith.constant 20000000 : index
  %c39999996 = arith.constant 39999996 : index
  %s0 = memref.subview %buf[1000] [4] [1] : memref<40000000xi32> to memref<4xi32, strided<[1], offset: 1000>>
  %s1 = memref.subview %buf[20000000] [4] [1] : memref<40000000xi32> to memref<4xi32, strided<[1], offset: 20000000>>
  %s2 = memref.subview %buf[39999996] [4] [1] : memref<40000000xi32> to memref<4xi32, strided<[1], offset: 39999996>>
  %u0 = memref.cast %s0 : memref<4xi32, strided<[1], offset: 1000>> to memref<*xi32>
  %u1 = memref.cast %s1 : memref<4xi32, strided<[1], offset: 20000000>> to memref<*xi32>
  %u2 = memref.cast %s2 : memref<4xi32, strided<[1], offset: 39999996>> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  memref.dealloc %buf : memref<40000000xi32>
  return
}
