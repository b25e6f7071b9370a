// RUN: kiln-opt %s --kiln-attach-nvvm-target | FileCheck %s --check-prefix=DEFAULT
// RUN: kiln-opt %s --kiln-attach-nvvm-target="chip=sm_80 O=2" | FileCheck %s --check-prefix=SM80
// RUN: kiln-opt %s --kiln-attach-nvvm-target="chip=sm_90 features=+ptx85" | FileCheck %s --check-prefix=FEATURES

// Without features, the PTX version is the oldest the chip accepts.
// DEFAULT: gpu.module @plain [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]
// SM80: gpu.module @plain [#nvvm.target<chip = "sm_80", features = "+ptx70">]
// FEATURES: gpu.module @plain [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">]
gpu.module @plain {
  gpu.func @k() kernel { gpu.return }
}

// A target the user wrote is kept (and checked).
// DEFAULT: gpu.module @own [#nvvm.target<chip = "sm_86", features = "+ptx71">]
// SM80: gpu.module @own [#nvvm.target<chip = "sm_86", features = "+ptx71">]
gpu.module @own [#nvvm.target<chip = "sm_86", features = "+ptx71">] {
  gpu.func @k() kernel { gpu.return }
}
