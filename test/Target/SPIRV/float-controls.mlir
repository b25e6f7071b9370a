// RUN: kiln-opt %s --kiln-gpu-to-spirv=target-env=desktop --mlir-print-ir-before=kiln-serialize-spirv 2>&1 >/dev/null | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-spirv="target-env=desktop fast-math" --mlir-print-ir-before=kiln-serialize-spirv 2>&1 >/dev/null | FileCheck %s --check-prefix=FAST

// NaNs, infinities and signed zeros kept: every entry point of a module
// that computes with f32 and f64 declares SignedZeroInfNanPreserve for both
// widths (the f16 memory of the other kernel is only copied: no mode for
// f16), where the target env
// has the capability (desktop does; the vulkan-1.x profiles promise no float
// controls, and a device env has it where the device keeps NaNs and signed
// zeros for every float width it has). fast-math leaves them out.
// CHECK: spirv.module {{.*}} requires #spirv.vce<{{.*}}SignedZeroInfNanPreserve
// CHECK-NOT: "SignedZeroInfNanPreserve", 16
// CHECK-DAG: spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 32
// CHECK-DAG: spirv.ExecutionMode @k "SignedZeroInfNanPreserve", 64
// CHECK-DAG: spirv.ExecutionMode @copy "SignedZeroInfNanPreserve", 32
// CHECK-NOT: "SignedZeroInfNanPreserve", 16
// FAST-NOT: spirv.ExecutionMode {{.*}}SignedZeroInfNanPreserve
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>, %b: memref<4xf64>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf32>
      %h = arith.constant 0.5 : f32
      %y = arith.maximumf %x, %h : f32
      memref.store %y, %a[%i] : memref<4xf32>
      %u = memref.load %b[%i] : memref<4xf64>
      %v = arith.negf %u : f64
      memref.store %v, %b[%i] : memref<4xf64>
      gpu.return
    }
    gpu.func @copy(%a: memref<4xf16>, %b: memref<4xf16>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf16>
      memref.store %x, %b[%i] : memref<4xf16>
      gpu.return
    }
  }
}
