// Where -o puts device binaries (docs/user-guide.md): a folder with
// <module>.<ext> per GPU module, created if needed (a new folder too, with
// or without a trailing '/'); the file itself only when there is one module
// and the path ends in the kind's extension; the current folder without -o.
// RUN: rm -rf %t && mkdir -p %t/cwd
// RUN: kiln-compile %s --emit=spirv -o %t/new
// RUN: spirv-val %t/new/only.spv
// RUN: kiln-compile %s --emit=container -o %t/slash/
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1], 'rb').read(4) != b'KILN')" %t/slash/only.kiln
// RUN: kiln-compile %s --emit=spirv -o %t/file.spv
// RUN: spirv-val %t/file.spv
// RUN: kiln-compile %s --target=cuda --emit=ptx -o %t/file.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/file.ptx
// RUN: kiln-compile %s --target=cuda --emit=ptx -o %t/ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/ptx/only.ptx
// An existing folder stays a folder, whatever its name.
// RUN: mkdir %t/dir.spv && kiln-compile %s --emit=spirv -o %t/dir.spv
// RUN: spirv-val %t/dir.spv/only.spv
// Several modules always go to a folder.
// RUN: kiln-compile %S/kiln-compile-container.mlir --emit=spirv -o %t/two.spv
// RUN: spirv-val %t/two.spv/first.spv
// RUN: spirv-val %t/two.spv/second.spv
// RUN: cd %t/cwd && kiln-compile %s --emit=spirv && spirv-val %t/cwd/only.spv
// Something in the way is an error, and nothing is written.
// RUN: touch %t/blocker && not kiln-compile %s --emit=spirv -o %t/blocker/out 2>&1 | FileCheck %s --check-prefix=BLOCKED

// PTX: .visible .entry scale
// BLOCKED: kiln-compile: error: cannot create folder '{{.*}}blocker/out': Not a directory

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @scale(%m: memref<16xf32>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @only::@scale blocks in (%c1, %c1, %c1)
        threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    return
  }
}
