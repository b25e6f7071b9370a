// RUN: kiln-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// #kiln.kernel_abi round-trips, and is checked against the kernel it is on
// and against the push-constant block: a table that the conversion would
// follow or the runtime would read wrongly is an error at the kernel.

// CHECK-LABEL: gpu.func @ok
// CHECK-SAME: kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 20, args = [#kiln.arg<memref, size = 4, rank = 1>, #kiln.arg<identity_memref, size = 4, rank = 1, binding = 1, push_constant_offset = 0, base_alignment = 16>, #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 12>, #kiln.arg<scalar, type = index, size = 4, push_constant_offset = 16>]>
gpu.module @m {
  gpu.func @ok(%a: memref<8xf32>, %b: memref<?xf32>, %k: f32, %n: index) kernel attributes {
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 20, args = [
          #kiln.arg<memref, size = 4, rank = 1>,
          #kiln.arg<identity_memref, size = 4, rank = 1, binding = 1, push_constant_offset = 0, base_alignment = 16>,
          #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 12>,
          #kiln.arg<scalar, type = index, size = 4, push_constant_offset = 16>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op has a 'kiln.abi' that lists 1 arguments for 2}}
  gpu.func @count(%a: memref<8xf32>, %k: f32) kernel attributes {
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 0, args = [
          #kiln.arg<memref, size = 4, rank = 1>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{has a 'kiln.abi' that gives argument 0 rank 2 and 4-byte elements, unlike its type}}
  gpu.func @rank(%a: memref<8xf32>) kernel attributes {
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 0, args = [
          #kiln.arg<memref, size = 4, rank = 2>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{has a 'kiln.abi' that does not give argument 0 its scalar type}}
  gpu.func @scalar(%k: f32) kernel attributes {
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 4, args = [
          #kiln.arg<scalar, type = i32, size = 4, push_constant_offset = 0>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @past(%k: f64) kernel attributes {
      // expected-error @+1 {{argument 0 has push-constant data past the end of the block}}
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 4, args = [
          #kiln.arg<scalar, type = f64, size = 8, push_constant_offset = 0>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @bits(%a: memref<8xf32>) kernel attributes {
      // expected-error @+1 {{index_bits is 16; index push constants are 32 or 64 bits}}
      kiln.abi = #kiln.kernel_abi<index_bits = 16, push_constant_size = 0, args = [
          #kiln.arg<memref, size = 4, rank = 1>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @twice(%a: memref<8xf32>, %b: memref<8xf32>) kernel attributes {
      // expected-error @+1 {{argument 1 is at (set 0, binding 0), as an earlier argument is}}
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 0, args = [
          #kiln.arg<memref, size = 4, rank = 1>, #kiln.arg<memref, size = 4, rank = 1>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @pushed(%b: memref<?xf32>) kernel attributes {
      // expected-error @+1 {{argument 0 has no push-constant data}}
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 12, args = [
          #kiln.arg<identity_memref, size = 4, rank = 1>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @aligned(%a: memref<8xf32>) kernel attributes {
      // expected-error @+1 {{argument 0 has base alignment 12 (a power of two above the element size, up to 256, for a descriptor memref)}}
      kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 0, args = [
          #kiln.arg<memref, size = 4, rank = 1, base_alignment = 12>]>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'kiln.abi' must be a #kiln.kernel_abi, not {args = []}}}
  gpu.func @dictionary() kernel attributes {kiln.abi = {args = []}} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{unknown Kiln attribute 'kiln.frobnicate'}}
  gpu.func @unknown() kernel attributes {kiln.frobnicate} {
    gpu.return
  }
}
