// RUN: kiln-opt %s --split-input-file --kiln-gpu-to-spirv=target-env=desktop --verify-diagnostics
// gpu.printf on Vulkan: what the validation layer's debug printf cannot
// print, refused at the op. It hands the format to the C library's snprintf
// with 32-bit values, so a string, character or pointer conversion, a '*'
// width or a 64-bit length modifier would read memory that is not there.

gpu.module @m {
  gpu.func @k(%s: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%s' is not supported by Vulkan's debug printf, which prints numbers only}}
    gpu.printf "name %s\n", %s : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%c: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%c' is not supported}}
    gpu.printf "%c", %c : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%ld' has the length modifier 'l': Vulkan's debug printf prints 32-bit values only}}
    gpu.printf "%ld\n", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%*d' takes its width or precision from an argument ('*')}}
    gpu.printf "%*d\n", %x, %x : i32, i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{format string has 2 conversion(s) but the op has 1 argument(s)}}
    gpu.printf "%d %d\n", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{format string ends inside the conversion '%'}}
    gpu.printf "100%", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{argument #0 has type 'f32' but its conversion '%d' prints an integer}}
    gpu.printf "%d\n", %x : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{argument #0 has type 'i32' but its conversion '%f' prints a floating-point value}}
    gpu.printf "%f\n", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i64) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{argument #0 has type 'i64': Vulkan's debug printf (the Khronos validation layer) prints 32-bit values; truncate it with arith.trunci to i32, or print it on CUDA (--target=cuda)}}
    gpu.printf "%d\n", %x : i64
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f64) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{argument #0 has type 'f64': Vulkan's debug printf (the Khronos validation layer) prints 32-bit values; convert it with arith.truncf to f32}}
    gpu.printf "%f\n", %x : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{argument #0 has type 'f32' but its conversion '%v4f' prints a vector, and gpu.printf's arguments are scalars}}
    gpu.printf "%v4f\n", %x : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%dl': Vulkan's debug printf reads an 'l' right after the conversion as a 64-bit value}}
    gpu.printf "%dlanes\n", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%2000000000d' has a malformed or too wide field}}
    gpu.printf "%2000000000d\n", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%1.2.3d' has a malformed or too wide field}}
    gpu.printf "%1.2.3d\n", %x : i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    // expected-error @+1 {{conversion '%hf' puts an integer length modifier on a float}}
    gpu.printf "%hf\n", %x : f32
    gpu.return
  }
}
