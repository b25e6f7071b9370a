// RUN: not kiln-compile %s --target=metal --emit=spirv -o %t.spv 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not kiln-compile %s --target=vulkan --emit=wasm -o %t.spv 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not kiln-compile %s --target=vulkan --target-env=vulkan-0.9 -o %t.spv 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: not kiln-compile %s.missing -o %t.spv 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: rm -f %t.bad.spv && not kiln-compile %s --target=vulkan --target-env=vulkan-1.1 --emit=spirv -o %t.bad.spv 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not test -e %t.bad.spv
// The default target env is `desktop`: 512 invocations, f64 and f16 compile.
// RUN: kiln-compile %s --target=vulkan --emit=spirv -o %t.ok.spv
// RUN: kiln-compile %S/../Integration/Vulkan/elementwise_f64.mlir --emit=spirv -o %t.f64.spv
// RUN: kiln-compile %S/../Integration/Vulkan/elementwise_f16.mlir --emit=spirv -o %t.f16.spv
// A capability the chosen target env lacks names it and the way out.
// RUN: not kiln-compile %S/../Integration/Vulkan/elementwise_f64.mlir --target-env=vulkan-1.1 --emit=spirv -o %t.bad.spv 2>&1 | FileCheck %s --check-prefix=CAP
// CAP: elementwise_f64.mlir:{{[0-9]+}}:3: error: 'gpu.func' cannot be lowered to SPIR-V for this target env (SPIR-V v1.3): it needs capability Float64; target env 'vulkan-1.1' (choose another with --target-env=desktop|device|vulkan-1.1|vulkan-1.2|vulkan-1.3|lavapipe or a #spirv.target_env literal)

// TARGET: kiln-compile: error: unknown --target='metal'; supported: vulkan
// EMIT: kiln-compile: error: unknown --emit='wasm' for --target=vulkan; supported: mlir, spirv, container, llvm, obj, exe
// ENV: kiln-compile: error: unknown target env 'vulkan-0.9'
// MISSING: kiln-compile: error: cannot open input file '{{.*}}.missing': No such file or directory
// LIMIT: kiln-compile-errors.mlir:[[@LINE+5]]:5: error: block size (512, 1, 1) of kernel 'big_kernel' is above the target env's limit in x: 512 > 128 (max_compute_workgroup_size); target env 'vulkan-1.1' (choose another with --target-env=desktop|device|vulkan-1.1|vulkan-1.2|vulkan-1.3|lavapipe or a #spirv.target_env literal)
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
