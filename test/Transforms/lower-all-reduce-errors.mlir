// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(kiln-lower-all-reduce))' --verify-diagnostics

gpu.module @m {
  // expected-error @+1 {{kernel 'big' has 2048 invocations per workgroup; gpu.all_reduce supports at most 1024}}
  gpu.func @big(%a: memref<8xi32>) kernel attributes {known_block_size = array<i32: 2048, 1, 1>} {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<8xi32>
    %r = gpu.all_reduce add %x {} : (i32) -> (i32)
    memref.store %r, %a[%i] : memref<8xi32>
    gpu.return
  }
}

