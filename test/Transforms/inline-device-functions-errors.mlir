// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(kiln-inline-device-functions))' --verify-diagnostics

// A host function (declared, no body) called from a kernel.
gpu.module @m {
  func.func private @printMemrefF32(memref<*xf32>)
  gpu.func @k(%a: memref<4xf32>) kernel {
    %u = memref.cast %a : memref<4xf32> to memref<*xf32>
    // expected-error @+1 {{kernel 'k' calls 'printMemrefF32', which has no body in GPU module 'm': host functions cannot be called from kernels; a device function must be defined in the program}}
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.return
  }
}

// -----

// Recursion, through two functions.
gpu.module @m {
  // expected-error @+1 {{device function 'even' is recursive (even -> odd -> even): Kiln inlines device functions into their kernels and cannot inline recursion}}
  func.func @even(%n: i32) -> i1 {
    %r = call @odd(%n) : (i32) -> i1
    return %r : i1
  }
  func.func @odd(%n: i32) -> i1 {
    %r = call @even(%n) : (i32) -> i1
    return %r : i1
  }
  gpu.func @k(%n: i32) kernel {
    %r = func.call @even(%n) : (i32) -> i1
    gpu.return
  }
}
