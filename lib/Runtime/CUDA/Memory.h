//===- Memory.h - Allocations, host registration, copies, fills -*- C++ -*-===//
//
// The Memory unit of the CUDA runtime: device and managed allocations
// (mgpuMemAlloc), host memory registered with the driver (counted per page,
// so that overlapping registrations nest), and the copies and fills on a
// stream. Host memory is registered for every context of the process
// (CU_MEMHOSTREGISTER_PORTABLE), so its registrations are the process's,
// kept once for all devices (HostRegistry). It reads a Device and calls
// nothing above it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_MEMORY_H
#define KILN_RUNTIME_CUDA_MEMORY_H

#include "Device.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace kiln::cudart {

/// The host memory the process registered with the driver, per page-aligned
/// block with a count, shared by every device's Memory: a registration made
/// through one device serves them all, and any device may undo it. Guarded
/// by its own lock, taken within a device's.
class HostRegistry {
public:
  /// The process's registry.
  static HostRegistry &get();

  /// mgpuMemHostRegister of [ptr, ptr + bytes), undone by hostUnregister;
  /// `device` makes the driver calls (its context current).
  Status hostRegister(Device &device, void *ptr, uint64_t bytes);
  Status hostUnregister(Device &device, void *ptr);
  /// The pages of [begin, end) registered, or unregistered once.
  Status registerRange(Device &device, uintptr_t begin, uintptr_t end);
  Status unregisterRange(Device &device, uintptr_t begin, uintptr_t end);

  /// cuMemHostRegister / cuMemHostUnregister calls made.
  uint64_t registerCalls() const;
  uint64_t unregisterCalls() const;
  /// Page ranges registered now.
  uint64_t registeredRanges() const;

private:
  struct Registration {
    uintptr_t end;
    unsigned refs;
    /// Registered by someone else (the program, cuMemHostAlloc): never
    /// unregistered here.
    bool external;
  };
  using Registrations = std::map<uintptr_t, Registration>;

  HostRegistry() = default;
  Status registerLocked(Device &device, uintptr_t begin, uintptr_t end);
  Status unregisterLocked(Device &device, uintptr_t begin, uintptr_t end);
  /// True for pageable host memory and memory this runtime registered;
  /// false for device and managed memory and for host memory registered
  /// by someone else, which need nothing.
  bool needsRegistration(Device &device, uintptr_t address);
  /// The registered block that contains `address`, else the first one
  /// after it.
  Registrations::iterator firstBlockEndingAfter(uintptr_t address);
  bool isOurs(uintptr_t address);
  Status addBlock(Device &device, uintptr_t begin, uintptr_t end);

  mutable std::mutex mutex;
  /// mgpuMemHostRegister's ranges, per pointer, for mgpuMemHostUnregister.
  std::map<void *, std::vector<std::pair<uintptr_t, uintptr_t>>> rawRanges;
  Registrations registrations;
  uint64_t registers = 0;
  uint64_t unregisters = 0;
};

/// Memory of the device and registered host memory. Every method expects
/// the caller to hold the runtime's lock and the device's context to be
/// current.
class Memory {
public:
  explicit Memory(Device &device) : device(device) {}

  /// mgpuMemAlloc: device memory, or managed memory when `hostShared`.
  Expected<void *> allocate(uint64_t bytes, bool hostShared);
  Status free(void *pointer);
  /// True when the byte at `address` is in one of this device's
  /// allocations.
  bool owns(uintptr_t address) const;

  /// cuMemcpyAsync of `bytes` bytes on `stream`. Both ranges are placed
  /// against the allocations first: one that starts in an allocation and
  /// runs past its end, or runs into one, is an error before the driver
  /// sees it (host memory the program owns has no recorded size).
  Status copy(void *dst, const void *src, size_t bytes, CUstream stream);
  /// cuMemcpyDtoDAsync between two device allocations on `stream`.
  Status copyDeviceToDevice(void *dst, const void *src, size_t bytes,
                            CUstream stream);
  /// cuMemcpyPeerAsync of `bytes` from `src`, memory of the device whose
  /// context is `srcContext` (placed against that device's allocations by
  /// its own Memory: checkPeerSource), to `dst` in this device's context
  /// `dstContext`, on `stream`.
  Status copyFromPeer(void *dst, CUcontext dstContext, const void *src,
                      CUcontext srcContext, size_t bytes, CUstream stream);
  /// An error when `bytes` at `src` reach past one of this device's
  /// allocations or into one: the source side of a peer copy.
  Status checkPeerSource(const void *src, size_t bytes) const;
  /// cuMemsetD32Async or cuMemsetD16Async of `count` words of
  /// `patternBytes` bytes, placed against the allocations as copies are.
  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              CUstream stream);

  /// mgpuMemHostRegister of [ptr, ptr + bytes), undone by hostUnregister
  /// (through this device or another: HostRegistry).
  Status hostRegister(void *ptr, uint64_t bytes);
  Status hostUnregister(void *ptr);
  /// The bytes a memref descriptor can reach, registered or unregistered.
  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes);
  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes);

  /// Frees every allocation this device still has (when the runtime goes).
  void releaseAll();

  /// mgpuMemAlloc calls that succeeded.
  uint64_t allocations() const { return allocationCount; }

private:
  /// An error when `bytes` at `p` reach past an allocation or into one.
  Status checkRange(const void *p, uint64_t bytes, const char *what) const;

  Device &device;
  /// mgpuMemAlloc's allocations: base address to byte size.
  std::map<uintptr_t, uint64_t> allocated;
  uint64_t allocationCount = 0;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_MEMORY_H
