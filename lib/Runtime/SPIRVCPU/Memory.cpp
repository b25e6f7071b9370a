//===- Memory.cpp - Host memory that mgpuMemAlloc gives -------------------===//
//
// Allocations are recorded with their sizes so that copies, fills and
// launch buffers are placed against them (rt::placeRange, as the Vulkan
// runtime does).
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "../Format.h"
#include "../Ranges.h"
#include "Text.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Expected;
using rt::Status;

Expected<void *> Memory::allocate(uint64_t bytes) {
  uint64_t rounded = std::max<uint64_t>((bytes + 63) / 64 * 64, 64);
  if (rounded < bytes)
    return KILN_ERROR(OutOfMemory,
                      "mgpuMemAlloc of " + std::to_string(bytes) + " bytes");
  void *p = std::aligned_alloc(64, size_t(rounded));
  if (!p)
    return KILN_ERROR(OutOfMemory, "mgpuMemAlloc of " +
                                       rt::describeBytes(bytes) +
                                       ": host memory is exhausted");
  std::lock_guard<std::mutex> lock(mutex);
  allocations[p] = bytes;
  return p;
}

Status Memory::free(void *pointer) {
  if (!pointer)
    return Status::success();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!allocations.erase(pointer))
      return KILN_ERROR(InvalidArgument,
                        "mgpuMemFree of " + pointerText(pointer) +
                            ", which mgpuMemAlloc did not return (or which "
                            "was freed already)");
  }
  std::free(pointer);
  return Status::success();
}

Status Memory::copy(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  if (!dst || !src)
    return KILN_ERROR(InvalidArgument, "mgpuMemcpy of " +
                                           std::to_string(bytes) +
                                           " bytes with a null pointer");
  KILN_TRY(checkRange(dst, bytes, "mgpuMemcpy's destination (gpu.memcpy)"));
  KILN_TRY(checkRange(src, bytes, "mgpuMemcpy's source (gpu.memcpy)"));
  std::memmove(dst, src, bytes);
  return Status::success();
}

Status Memory::fill(void *dst, uint32_t value, unsigned patternBytes,
                    size_t count) {
  if (count == 0)
    return Status::success();
  if (!dst)
    return KILN_ERROR(InvalidArgument, "mgpuMemset" +
                                           std::to_string(8 * patternBytes) +
                                           " of a null pointer");
  if (count > SIZE_MAX / patternBytes)
    return KILN_ERROR(InvalidArgument,
                      "mgpuMemset" + std::to_string(8 * patternBytes) + " of " +
                          std::to_string(count) + " elements overflows a size");
  KILN_TRY(checkRange(dst, uint64_t(count) * patternBytes,
                      "mgpuMemset (gpu.memset)"));
  auto *bytes = static_cast<uint8_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(bytes + i * patternBytes, &value, patternBytes);
  return Status::success();
}

Expected<double> Memory::deviceCopy(void *dst, const void *src, size_t bytes) {
  auto start = std::chrono::steady_clock::now();
  KILN_TRY(copy(dst, src, bytes));
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - start)
      .count();
}

Status Memory::checkRange(const void *p, uint64_t bytes, const char *what) {
  std::lock_guard<std::mutex> lock(mutex);
  std::string error =
      rt::rangeError(allocations, const_cast<void *>(p),
                     reinterpret_cast<uintptr_t>(p), bytes, what);
  if (!error.empty())
    return KILN_ERROR(InvalidArgument, error);
  return Status::success();
}

bool Memory::owns(const void *p) {
  auto address = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = allocations.upper_bound(const_cast<void *>(p));
  if (it == allocations.begin())
    return false;
  --it;
  // As rt::placeRange reads an allocation: an empty one is one byte.
  auto base = reinterpret_cast<uintptr_t>(it->first);
  return address - base < std::max<uint64_t>(it->second, 1);
}
