// RUN: kiln-opt %s --split-input-file --kiln-check-cuda-limits --verify-diagnostics

// Block and grid sizes past what every NVIDIA GPU launches, located at the
// launch; static shared memory past 48 KiB, located at the kernel.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    // expected-error @+1 {{launch of kernel 'k' has 4096 threads in block dimension x; CUDA allows 1 to 1024}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c4096, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c32 = arith.constant 32 : index
    // expected-error @+1 {{launch of kernel 'k' has 128 threads in block dimension z; CUDA allows 1 to 64}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c128)
    // expected-error @+1 {{launch of kernel 'k' has 4096 threads per block; CUDA allows at most 1024}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c32, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @f(%n: index) {
    %c1 = arith.constant 1 : index
    %c70000 = arith.constant 70000 : index
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{launch of kernel 'k' has 70000 blocks in grid dimension y; CUDA allows 1 to 65535}}
    gpu.launch_func @m::@k blocks in (%c1, %c70000, %c1) threads in (%c1, %c1, %c1)
    // expected-error @+1 {{launch of kernel 'k' has 0 blocks in grid dimension x; CUDA allows 1 to 2147483647}}
    gpu.launch_func @m::@k blocks in (%c0, %c1, %c1) threads in (%c1, %c1, %c1)
    // Sizes known only at run time are the driver's to check.
    gpu.launch_func @m::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    // At the limits: fine.
    %c1024 = arith.constant 1024 : index
    %c65535 = arith.constant 65535 : index
    gpu.launch_func @m::@k blocks in (%c65535, %c65535, %c65535) threads in (%c1024, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @tile : memref<8192xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{kernel 'k' uses 65536 bytes of static shared memory; CUDA allows at most 49152 (48 KiB) per block}}
    gpu.func @k() workgroup(%a : memref<8192xf32, #gpu.address_space<workgroup>>) kernel {
      %t = memref.get_global @tile : memref<8192xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // 48 KiB exactly is fine.
    gpu.func @ok() workgroup(%a : memref<12288xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
}
