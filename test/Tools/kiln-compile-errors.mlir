// RUN: not kiln-compile %s --target=metal --emit=spirv -o %t.spv 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not kiln-compile %s --target=vulkan --emit=wasm -o %t.spv 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not kiln-compile %s --target=vulkan --target-env=vulkan-0.9 -o %t.spv 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: not kiln-compile %s.missing -o %t.spv 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not kiln-compile %s --target=vulkan --emit=spirv -o %t.bad.spv 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not test -e %t.bad.spv

// TARGET: kiln-compile: error: unknown --target='metal'; supported: vulkan
// EMIT: kiln-compile: error: unknown --emit='wasm' for --target=vulkan; supported: mlir, spirv, container, llvm, obj, exe
// ENV: kiln-compile: error: unknown target env 'vulkan-0.9'
// MISSING: kiln-compile: error: cannot open input file '{{.*}}.missing': No such file or directory
// LIMIT: kiln-compile-errors.mlir:[[@LINE+5]]:5: error: block size (512, 1, 1) of kernel 'big_kernel' is above the target env's limit in x: 512 > 128 (max_compute_workgroup_size)
module {
  func.func @big(%a: memref<512xf32>) {
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c512, %sy = %c1, %sz = %c1) {
      %x = memref.load %a[%tx] : memref<512xf32>
      memref.store %x, %a[%tx] : memref<512xf32>
      gpu.terminator
    }
    return
  }
}
