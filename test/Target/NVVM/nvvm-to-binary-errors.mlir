// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-nvvm-to-binary=format=ptx

// A GPU module without targets next to an NVVM one is reported, not a crash.
gpu.module @with_target [#nvvm.target<chip = "sm_90", features = "+ptx78">] {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} { llvm.return }
}
// expected-error @+1 {{the module has no target attributes}}
gpu.module @without_target {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} { llvm.return }
}

// -----

// The attribute's own verifier rejects a bad level, with a location.
// expected-error @+1 {{The optimization level must be a number between 0 and 3.}}
gpu.module @bad_level [#nvvm.target<O = 5, chip = "sm_90", features = "+ptx78">] {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} { llvm.return }
}
