// An empty kernel: what a launch costs with no work, synchronously (launch,
// wait) and back to back (many launches, one wait).
gpu.module @empty {
  gpu.func @empty() kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}
