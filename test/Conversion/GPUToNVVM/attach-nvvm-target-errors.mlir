// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-attach-nvvm-target="chip=sm_90 features=+ptx60"
// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-attach-nvvm-target="chip=sm_90 features=+ptx60" --kiln-nvvm-to-binary=format=ptx

// LLVM's NVPTX back end aborts on these; Kiln reports them at the module.

// expected-error @+1 {{GPU module 'too_old': chip 'sm_90' needs PTX 7.8 or newer, but the target asks for PTX 6.0 (features '+ptx60'); use features "+ptx78" or newer}}
gpu.module @too_old {
  gpu.func @k() kernel { gpu.return }
}

// -----

// expected-error @+1 {{GPU module 'unknown_chip': unknown NVIDIA chip 'sm_99' (known: sm_20,}}
gpu.module @unknown_chip [#nvvm.target<chip = "sm_99", features = "+ptx80">] {
  gpu.func @k() kernel { gpu.return }
}

// -----

// expected-error @+1 {{GPU module 'bad_ptx': unknown PTX version '+ptx79' (LLVM writes PTX 3.2 to 9.0)}}
gpu.module @bad_ptx [#nvvm.target<chip = "sm_90", features = "+ptx79">] {
  gpu.func @k() kernel { gpu.return }
}

// -----

// expected-error @+1 {{GPU module 'no_ptx': chip 'sm_80' needs PTX 7.0 or newer, but the target asks for PTX 3.2 (no +ptx feature); use features "+ptx70" or newer}}
gpu.module @no_ptx [#nvvm.target<chip = "sm_80">] {
  gpu.func @k() kernel { gpu.return }
}
