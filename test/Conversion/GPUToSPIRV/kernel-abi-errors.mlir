// RUN: kiln-opt %s --split-input-file --kiln-spirv-kernel-abi --verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    // expected-error @+1 {{block size (256, 1, 1) of kernel 'k' is above the target env's limit in x: 256 > 128 (max_compute_workgroup_size)}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    // expected-error @+1 {{block size (16, 16, 1) of kernel 'k' has 256 invocations, above the target env's limit of 128 (max_compute_workgroup_invocations)}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{block size of kernel 'k' is not a compile-time constant; a Vulkan compute pipeline fixes the workgroup size when it is created}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    // expected-note @+1 {{other launch here}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
    // expected-error @+1 {{kernel 'k' is launched with block size (16, 1, 1) here and (8, 1, 1) elsewhere; a SPIR-V entry point has one workgroup size}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-error @+1 {{block size (64, 1, 1) differs from the workgroup size (32, 1, 1) in the spirv.entry_point_abi of kernel 'k'}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' has no launch with a constant block size and no spirv.entry_point_abi}}
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' uses 32768 bytes of workgroup memory, above the target env's limit of 16384 (max_compute_shared_memory_size)}}
    gpu.func @k() workgroup(%s : memref<8192xf32, #gpu.address_space<workgroup>>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' needs 144 bytes of push constants for its scalars and memref metadata, above the 128 bytes every Vulkan device provides (maxPushConstantsSize)}}
    gpu.func @k(%a: memref<?x?x?x?xf32>, %b: memref<?x?x?x?xf32>, %c: memref<?x?x?x?xf32>, %d: memref<?x?x?x?xf32>)
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' argument 0 of type 'memref<?x?x?x?x?xf32>' is not supported: memrefs with dynamic shapes or layouts must be strided and of rank 1 to 4}}
    gpu.func @k(%a: memref<?x?x?x?x?xf32>)
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' argument 0 has type 'bf16'; scalar arguments must be integers of 1 to 64 bits, f16, f32, f64 or index}}
    gpu.func @k(%a: bf16)
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' binds two arguments at (set 0, binding 3)}}
    gpu.func @k(%a: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3)>},
                %b: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3)>})
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>} {
    // expected-error @+1 {{kernel 'k' argument 0 has element type 'index', which a Vulkan storage buffer cannot hold}}
    gpu.func @k(%a: memref<4xindex>)
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}
