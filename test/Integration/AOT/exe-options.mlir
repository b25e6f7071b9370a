// An executable from kiln-compile --emit=exe takes the runner's run-time
// options and the runtime's KILN_VULKAN_* variables.
// RUN: kiln-compile %s --emit=exe -o %t.exe
// RUN: %t.exe --help | FileCheck %s --check-prefix=HELP
// RUN: not %t.exe --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %t.exe --list-devices | FileCheck %s --check-prefix=LIST
// RUN: %t.exe --validate --print-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: env KILN_VULKAN_TIMING=1 %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: %t.exe --device=0 | FileCheck %s
// RUN: not %t.exe --device=no-such-device 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: env KILN_VULKAN_DEVICE=no-such-device not %t.exe 2>&1 | FileCheck %s --check-prefix=DEVICE

// HELP: usage: {{.*}} [options]
// HELP: --device=A[,B...]
// HELP: --validate
// HELP: --print-timing
// HELP: --list-devices
// UNKNOWN: unknown argument '--bogus'; see {{.*}} --help
// LIST: 0: {{.+}}
// LIST-NEXT: type: {{(discrete GPU|integrated GPU|virtual GPU|CPU|other)}}
// TIMING: kiln-timing kernel=main_kernel gpu_us={{[0-9.]+}} host_us={{[0-9.]+}}
// TIMING-NOT: kiln-timing
// DEVICE: kiln-vulkan: no Vulkan device named 'no-such-device'; the devices are:
// CHECK: [0,  2,  4,  6]

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<4xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %v = arith.addi %i, %i : i32
      memref.store %v, %m[%tx] : memref<4xi32>
      gpu.terminator
    }
    %u = memref.cast %m : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %m : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
