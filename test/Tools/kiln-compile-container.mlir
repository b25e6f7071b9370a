// kiln-compile --emit=container writes what mgpuModuleLoad takes: each GPU
// module's SPIR-V with its kernels' argument ABI, `.kiln` per module.
// RUN: rm -rf %t.dir && kiln-compile %s --emit=container -o %t.dir
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); sys.exit(d[:4] != b'KILN' or b'scale' not in d)" %t.dir/first.kiln
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); sys.exit(d[:4] != b'KILN' or b'shift' not in d)" %t.dir/second.kiln
// The container's SPIR-V is the module --emit=spirv writes.
// RUN: kiln-compile %s --emit=spirv -o %t.spv
// RUN: %python -c "import sys; c = open(sys.argv[1], 'rb').read(); s = open(sys.argv[2], 'rb').read(); sys.exit(s not in c)" %t.dir/first.kiln %t.spv/first.spv
// RUN: not kiln-compile %s --target=cuda --emit=container 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: unknown --emit='container' for --target=cuda; supported: mlir, ptx, cubin, llvm, obj, exe

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @shift(%x: memref<8xi32>) kernel
        attributes {known_block_size = array<i32: 8, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<8xi32>
      %c = arith.constant 1 : i32
      %w = arith.shli %v, %c : i32
      memref.store %w, %x[%i] : memref<8xi32>
      gpu.return
    }
  }
}
