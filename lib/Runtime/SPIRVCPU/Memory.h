//===- Memory.h - Host memory that mgpuMemAlloc gives -----------*- C++ -*-===//
//
// The Memory unit of the spirv-cpu runtime: the allocations gpu.alloc made
// (64-byte aligned host memory, with their sizes), and the copies and fills
// over them. Every range a copy, fill or launch names is placed against the
// allocations here first: one that wraps or reaches past an allocation is
// an error naming what asked. Host memory the program allocated itself has
// no recorded size and is taken as it is. It calls no other unit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_MEMORY_H
#define KILN_RUNTIME_SPIRVCPU_MEMORY_H

#include "kiln/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace kiln::spirvcpu {

class Memory {
public:
  Memory() = default;
  Memory(const Memory &) = delete;
  Memory &operator=(const Memory &) = delete;

  /// mgpuMemAlloc: `bytes` of host memory, 64-byte aligned.
  rt::Expected<void *> allocate(uint64_t bytes);
  /// mgpuMemFree: `pointer` must be one allocate returned and not freed
  /// yet (null: nothing).
  rt::Status free(void *pointer);
  /// mgpuMemcpy: `bytes` from `src` to `dst`, either of them host memory or
  /// (within) an allocation.
  rt::Status copy(void *dst, const void *src, size_t bytes);
  /// mgpuMemset16 and mgpuMemset32: `count` copies of the low
  /// `patternBytes` bytes of `value` at `dst`.
  rt::Status fill(void *dst, uint32_t value, unsigned patternBytes,
                  size_t count);
  /// A copy between allocations, timed: its microseconds.
  rt::Expected<double> deviceCopy(void *dst, const void *src, size_t bytes);

  /// `bytes` at `p` wrap around the address space, or reach into an
  /// mgpuMemAlloc allocation they do not fit in: an error naming `what`.
  /// (Host memory the program allocated itself has no recorded size.)
  rt::Status checkRange(const void *p, uint64_t bytes, const char *what);
  /// Whether the byte at `p` lies in one of this device's allocations (the
  /// bytes asked for, as checkRange reads them).
  bool owns(const void *p);

private:
  std::mutex mutex;
  /// Each allocation's address and the bytes asked for.
  std::map<void *, uint64_t> allocations;
};

} // namespace kiln::spirvcpu

#endif // KILN_RUNTIME_SPIRVCPU_MEMORY_H
