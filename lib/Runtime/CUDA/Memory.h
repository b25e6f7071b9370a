//===- Memory.h - Allocations, host registration, copies, fills -*- C++ -*-===//
//
// The Memory unit of the CUDA runtime: device and managed allocations
// (mgpuMemAlloc), host memory registered with the driver (counted per page,
// so that overlapping registrations nest), and the copies and fills on a
// stream. It reads a Device and calls nothing above it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_MEMORY_H
#define KILN_RUNTIME_CUDA_MEMORY_H

#include "Device.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace kiln::cudart {

/// Memory of the device and registered host memory. Every method expects
/// the caller to hold the runtime's lock and the device's context to be
/// current.
class Memory {
public:
  explicit Memory(Device &device) : device(device) {}

  /// mgpuMemAlloc: device memory, or managed memory when `hostShared`.
  Expected<void *> allocate(uint64_t bytes, bool hostShared);
  Status free(void *pointer);

  /// cuMemcpyAsync of `bytes` bytes on `stream`. Both ranges are placed
  /// against the allocations first: one that starts in an allocation and
  /// runs past its end, or runs into one, is an error before the driver
  /// sees it (host memory the program owns has no recorded size).
  Status copy(void *dst, const void *src, size_t bytes, CUstream stream);
  /// cuMemcpyDtoDAsync between two device allocations on `stream`.
  Status copyDeviceToDevice(void *dst, const void *src, size_t bytes,
                            CUstream stream);
  /// cuMemsetD32Async or cuMemsetD16Async of `count` words of
  /// `patternBytes` bytes, placed against the allocations as copies are.
  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              CUstream stream);

  /// mgpuMemHostRegister of [ptr, ptr + bytes), undone by hostUnregister.
  Status hostRegister(void *ptr, uint64_t bytes);
  Status hostUnregister(void *ptr);
  /// The bytes a memref descriptor can reach, registered or unregistered.
  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes);
  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes);

  /// mgpuMemAlloc calls that succeeded.
  uint64_t allocations() const { return allocationCount; }
  /// cuMemHostRegister / cuMemHostUnregister calls made.
  uint64_t hostRegisterCalls() const { return registerCalls; }
  uint64_t hostUnregisterCalls() const { return unregisterCalls; }
  /// Page ranges registered now.
  uint64_t registeredRanges() const { return registrations.size(); }

private:
  struct Registration {
    uintptr_t end;
    unsigned refs;
    /// Registered by someone else (the program, cuMemHostAlloc): never
    /// unregistered here.
    bool external;
  };
  using Registrations = std::map<uintptr_t, Registration>;

  /// Registers the pages of [begin, end) that need it; on an error, what
  /// this call registered is undone.
  Status registerRange(uintptr_t begin, uintptr_t end);
  /// Undoes one registration of [begin, end); the first error, after
  /// going through all of it.
  Status unregisterRange(uintptr_t begin, uintptr_t end);
  /// True for pageable host memory and memory this runtime registered;
  /// false for device and managed memory and for host memory registered
  /// by someone else, which need nothing.
  bool needsRegistration(uintptr_t address);
  /// The registered block that contains `address`, else the first one
  /// after it.
  Registrations::iterator firstBlockEndingAfter(uintptr_t address);
  bool isOurs(uintptr_t address);
  Status addBlock(uintptr_t begin, uintptr_t end);
  /// An error when `bytes` at `p` reach past an allocation or into one.
  Status checkRange(const void *p, uint64_t bytes, const char *what) const;

  Device &device;
  /// mgpuMemHostRegister's ranges, per pointer, for mgpuMemHostUnregister.
  std::map<void *, std::vector<std::pair<uintptr_t, uintptr_t>>> rawRanges;
  Registrations registrations;
  /// mgpuMemAlloc's allocations: base address to byte size.
  std::map<uintptr_t, uint64_t> allocated;
  uint64_t allocationCount = 0;
  uint64_t registerCalls = 0;
  uint64_t unregisterCalls = 0;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_MEMORY_H
