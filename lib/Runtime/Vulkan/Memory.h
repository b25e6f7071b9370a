//===- Memory.h - A device's allocations and staging ------------*- C++ -*-===//
//
// A device's allocations, staging and host import.
//
// The Memory unit of the Vulkan runtime: the device allocations gpu.alloc
// made, buffers with memory bound, and host memory imported or staged for a
// launch. Every range a copy, fill or launch names is placed against the
// allocations here first: one that wraps or reaches past an allocation is
// an error naming what asked. It reads a Device and calls nothing above it
// (waiting for the queue before a free is the caller's part).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_MEMORY_H
#define KILN_RUNTIME_VULKAN_MEMORY_H

#include "Device.h"

#include <map>
#include <string>
#include <vector>

namespace kiln::vkrt {

/// Address space reserved (never accessible) for a device allocation's
/// host-side pointer; unmapped when it goes out of scope.
class Reservation {
public:
  Reservation() = default;
  Reservation(const Reservation &) = delete;
  Reservation &operator=(const Reservation &) = delete;
  Reservation(Reservation &&other) noexcept { *this = std::move(other); }
  Reservation &operator=(Reservation &&other) noexcept;
  ~Reservation() { reset(); }
  /// False when the address space is exhausted.
  bool reserve(uint64_t bytes);
  void reset();
  uintptr_t base() const { return base_; }
  uint64_t bytes() const { return bytes_; }

private:
  uintptr_t base_ = 0;
  uint64_t bytes_ = 0;
};

/// Device-local memory from mgpuMemAlloc, at a reserved host address.
struct Allocation {
  uintptr_t base = 0;
  uint64_t size = 0;
  Reservation reserved; ///< Empty when the memory is mapped at `base`.
  Owned<VkDeviceMemory> memory;
  Owned<VkBuffer> buffer;
  void *mapped = nullptr; ///< When the memory is host-visible and coherent.
};

/// Host memory a launch reads or writes, imported into Vulkan or staged
/// through a host-visible buffer, alive until the launch completes.
struct HostSegment {
  uintptr_t lo = 0, hi = 0;     ///< The host bytes the kernel may touch.
  uintptr_t base = 0;           ///< Host address of byte 0 of `buffer`.
  Owned<VkDeviceMemory> memory; ///< Declared first: freed after `buffer`.
  Owned<VkBuffer> buffer;
  void *mapped = nullptr; ///< Staging only.
  bool staged = false;
};

class Memory {
public:
  explicit Memory(Device &device) : dev(device) {}
  Memory(const Memory &) = delete;
  Memory &operator=(const Memory &) = delete;

  /// A memory type in `typeBits` with every flag of `want`, preferring one
  /// without `avoid`; UINT32_MAX when there is none.
  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want,
                          VkMemoryPropertyFlags avoid = 0) const;
  /// A buffer with memory bound; an error names `purpose`, the size and
  /// the device's memory.
  Status createBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                      VkMemoryPropertyFlags want, Owned<VkBuffer> &buffer,
                      Owned<VkDeviceMemory> &memory, bool &hostVisible,
                      const std::string &purpose);
  /// A host-visible, coherent buffer of `size` bytes, mapped at `mapped`.
  Status createStaging(VkDeviceSize size, Owned<VkBuffer> &buffer,
                       Owned<VkDeviceMemory> &memory, void *&mapped,
                       const std::string &purpose);

  /// gpu.alloc: device-local memory at a reserved host address, or
  /// host-visible memory at its mapping when `hostShared`.
  Expected<void *> allocate(uint64_t size, bool hostShared);
  /// Whether `ptr` is what allocate returned (and release did not free).
  bool isAllocation(const void *ptr) const;
  /// Frees what allocate returned; an error for any other pointer. The
  /// device must be done with it.
  Status release(void *ptr);
  /// Frees every allocation (the device is being destroyed).
  void releaseAll() { allocations.clear(); }

  /// Where `size` bytes at `ptr` live: in `found`, the device allocation
  /// that holds them all, or null for host memory. An error names `what`
  /// when the range wraps or reaches into an allocation it does not fit.
  Status locate(const void *ptr, size_t size, const char *what,
                const Allocation *&found) const;

  /// Imports or stages the host memory of kernel `kernel`'s launch.
  Status mapSegments(std::vector<HostSegment> &segments,
                     const std::string &kernel);
  /// Releases a segment; a staged one is copied back first with `copyBack`.
  static void releaseSegment(HostSegment &segment, bool copyBack);

private:
  /// "N bytes (X GiB)" against what device-local memory the device has.
  Status outOfMemory(const std::string &purpose, uint64_t bytes,
                     const char *call, VkResult result, const char *file,
                     int line) const;
  /// Imports `segment`'s host range; false (nothing held) where the driver
  /// refuses it.
  Expected<bool> importSegment(HostSegment &segment);

  Device &dev;
  std::map<uintptr_t, Allocation> allocations;
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_MEMORY_H
