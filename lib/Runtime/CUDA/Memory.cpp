//===- Memory.cpp - Allocations, host registration, copies and fills ------===//
//
// Host registrations are kept per page-aligned block with a count: a range
// registers only the gaps between the blocks it covers and counts the rest,
// and a block is unregistered when its count reaches zero. Pages the driver
// already knows (device, managed, or registered by someone else) are left
// alone. Registrations are portable (every context sees them), so the
// process keeps one table of them for all its devices.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "../Format.h"
#include "../Ranges.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <unistd.h>

using namespace kiln;
using namespace kiln::cudart;
using rt::describeBytes;

namespace {

void pageAlign(uintptr_t &begin, uintptr_t &end) {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  begin &= ~(page - 1);
  end = (end + page - 1) & ~(page - 1);
}

/// The bytes a memref descriptor {allocated, aligned, offset, sizes[rank],
/// strides[rank]} can reach.
Expected<std::pair<uintptr_t, uintptr_t>>
memrefRange(int64_t rank, void *descriptor, int64_t elementSize) {
  if (!descriptor || rank < 0 || elementSize <= 0)
    return KILN_ERROR(InvalidArgument,
                      "mgpuMemHost(Un)RegisterMemRef: bad descriptor (rank " +
                          std::to_string(rank) + ", element size " +
                          std::to_string(elementSize) + ")");
  auto *words = static_cast<int64_t *>(descriptor);
  uintptr_t aligned = static_cast<uintptr_t>(words[1]);
  int64_t offset = words[2];
  const int64_t *sizes = words + 3;
  const int64_t *strides = words + 3 + rank;
  int64_t low = offset, high = offset;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0)
      return std::pair<uintptr_t, uintptr_t>(0, 0);
    int64_t reach = (sizes[i] - 1) * strides[i];
    (reach < 0 ? low : high) += reach;
  }
  return std::pair<uintptr_t, uintptr_t>(
      aligned + static_cast<uintptr_t>(low * elementSize),
      aligned + static_cast<uintptr_t>((high + 1) * elementSize));
}

} // namespace

//===-- Allocations -------------------------------------------------------===//

Expected<void *> Memory::allocate(uint64_t bytes, bool hostShared) {
  const Driver &drv = device.driver();
  CUdeviceptr ptr = 0;
  const char *call = hostShared ? "cuMemAllocManaged" : "cuMemAlloc";
  CUresult result =
      hostShared ? drv.cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL)
                 : drv.cuMemAlloc(&ptr, bytes);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    Expected<int> index = device.ordinal();
    std::string has;
    CUdevice handle;
    size_t total = 0;
    if (index && drv.cuDeviceGet(&handle, *index) == CUDA_SUCCESS &&
        drv.cuDeviceTotalMem(&total, handle) == CUDA_SUCCESS)
      has = ", which has " + describeBytes(total) + " of memory";
    return device.callError(ErrorKind::OutOfMemory, result, call,
                            "cannot allocate " + describeBytes(bytes) +
                                " for an mgpuMemAlloc (gpu.alloc" +
                                (hostShared ? " host_shared" : "") +
                                ") on device " + device.deviceLabel(index) +
                                has + ": " + call +
                                " failed: " + drv.describe(result),
                            __FILE__, __LINE__);
  }
  KILN_TRY(device.check(result, call, std::to_string(bytes) + " bytes"));
  ++allocationCount;
  allocated[uintptr_t(ptr)] = bytes;
  return reinterpret_cast<void *>(ptr);
}

bool Memory::owns(uintptr_t address) const {
  auto it = allocated.upper_bound(address);
  if (it == allocated.begin())
    return false;
  --it;
  return address - it->first < it->second;
}

void Memory::releaseAll() {
  for (const auto &[base, bytes] : allocated)
    device.driver().cuMemFree(static_cast<CUdeviceptr>(base));
  allocated.clear();
}

Status Memory::free(void *pointer) {
  KILN_TRY(device.check(
      device.driver().cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)),
      "cuMemFree"));
  allocated.erase(reinterpret_cast<uintptr_t>(pointer));
  return Status::success();
}

Status Memory::checkRange(const void *p, uint64_t bytes,
                          const char *what) const {
  auto lo = reinterpret_cast<uintptr_t>(p);
  std::string error = rt::rangeError(allocated, lo, lo, bytes, what);
  if (!error.empty())
    return KILN_ERROR(InvalidArgument, error);
  return Status::success();
}

//===-- Copies and fills --------------------------------------------------===//

Status Memory::copy(void *dst, const void *src, size_t bytes, CUstream stream) {
  KILN_TRY(checkRange(dst, bytes, "mgpuMemcpy's destination (gpu.memcpy)"));
  KILN_TRY(checkRange(src, bytes, "mgpuMemcpy's source (gpu.memcpy)"));
  return device.checkOn(stream,
                        device.driver().cuMemcpyAsync(
                            reinterpret_cast<CUdeviceptr>(dst),
                            reinterpret_cast<CUdeviceptr>(src), bytes, stream),
                        "cuMemcpyAsync", std::to_string(bytes) + " bytes");
}

Status Memory::copyDeviceToDevice(void *dst, const void *src, size_t bytes,
                                  CUstream stream) {
  KILN_TRY(checkRange(dst, bytes, "the copy's destination"));
  KILN_TRY(checkRange(src, bytes, "the copy's source"));
  return device.check(device.driver().cuMemcpyDtoDAsync(
                          reinterpret_cast<CUdeviceptr>(dst),
                          reinterpret_cast<CUdeviceptr>(src), bytes, stream),
                      "cuMemcpyDtoDAsync");
}

Status Memory::checkPeerSource(const void *src, size_t bytes) const {
  return checkRange(src, bytes, "mgpuMemcpy's source (gpu.memcpy)");
}

Status Memory::copyFromPeer(void *dst, CUcontext dstContext, const void *src,
                            CUcontext srcContext, size_t bytes,
                            CUstream stream) {
  KILN_TRY(checkRange(dst, bytes, "mgpuMemcpy's destination (gpu.memcpy)"));
  return device.checkOn(stream,
                        device.driver().cuMemcpyPeerAsync(
                            reinterpret_cast<CUdeviceptr>(dst), dstContext,
                            reinterpret_cast<CUdeviceptr>(src), srcContext,
                            bytes, stream),
                        "cuMemcpyPeerAsync", std::to_string(bytes) + " bytes");
}

Status Memory::fill(void *dst, uint32_t value, unsigned patternBytes,
                    size_t count, CUstream stream) {
  if (count > SIZE_MAX / patternBytes)
    return KILN_ERROR(InvalidArgument,
                      "mgpuMemset" + std::to_string(8 * patternBytes) + " of " +
                          std::to_string(count) + " elements overflows a size");
  KILN_TRY(checkRange(dst, uint64_t(count) * patternBytes,
                      "mgpuMemset (gpu.memset)"));
  const Driver &drv = device.driver();
  auto to = reinterpret_cast<CUdeviceptr>(dst);
  if (patternBytes == 2)
    return device.checkOn(
        stream,
        drv.cuMemsetD16Async(to, static_cast<unsigned short>(value), count,
                             stream),
        "cuMemsetD16Async");
  return device.checkOn(stream, drv.cuMemsetD32Async(to, value, count, stream),
                        "cuMemsetD32Async");
}

//===-- Host registration -------------------------------------------------===//

Status Memory::hostRegister(void *ptr, uint64_t bytes) {
  return HostRegistry::get().hostRegister(device, ptr, bytes);
}

Status Memory::hostUnregister(void *ptr) {
  return HostRegistry::get().hostUnregister(device, ptr);
}

Status Memory::hostRegisterMemRef(int64_t rank, void *descriptor,
                                  int64_t elementSizeBytes) {
  KILN_ASSIGN_OR_RETURN(auto range,
                        memrefRange(rank, descriptor, elementSizeBytes));
  return HostRegistry::get().registerRange(device, range.first, range.second);
}

Status Memory::hostUnregisterMemRef(int64_t rank, void *descriptor,
                                    int64_t elementSizeBytes) {
  KILN_ASSIGN_OR_RETURN(auto range,
                        memrefRange(rank, descriptor, elementSizeBytes));
  return HostRegistry::get().unregisterRange(device, range.first, range.second);
}

//===-- The process's host registrations ----------------------------------===//

HostRegistry &HostRegistry::get() {
  static HostRegistry *registry = new HostRegistry();
  return *registry;
}

uint64_t HostRegistry::registerCalls() const {
  std::lock_guard<std::mutex> lock(mutex);
  return registers;
}

uint64_t HostRegistry::unregisterCalls() const {
  std::lock_guard<std::mutex> lock(mutex);
  return unregisters;
}

uint64_t HostRegistry::registeredRanges() const {
  std::lock_guard<std::mutex> lock(mutex);
  return registrations.size();
}

Status HostRegistry::hostRegister(Device &device, void *ptr, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  KILN_TRY(registerLocked(device, begin, begin + bytes));
  rawRanges[ptr].push_back({begin, begin + bytes});
  return Status::success();
}

Status HostRegistry::hostUnregister(Device &device, void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = rawRanges.find(ptr);
  if (it == rawRanges.end() || it->second.empty()) {
    char message[128];
    std::snprintf(message, sizeof(message),
                  "mgpuMemHostUnregister(%p): that pointer was not "
                  "registered with mgpuMemHostRegister",
                  ptr);
    return KILN_ERROR(InvalidArgument, message);
  }
  auto [begin, end] = it->second.back();
  it->second.pop_back();
  if (it->second.empty())
    rawRanges.erase(it);
  return unregisterLocked(device, begin, end);
}

Status HostRegistry::registerRange(Device &device, uintptr_t begin,
                                   uintptr_t end) {
  std::lock_guard<std::mutex> lock(mutex);
  return registerLocked(device, begin, end);
}

Status HostRegistry::unregisterRange(Device &device, uintptr_t begin,
                                     uintptr_t end) {
  std::lock_guard<std::mutex> lock(mutex);
  return unregisterLocked(device, begin, end);
}

Status HostRegistry::registerLocked(Device &device, uintptr_t begin,
                                    uintptr_t end) {
  if (begin >= end || !needsRegistration(device, begin))
    return Status::success();
  pageAlign(begin, end);
  uintptr_t at = begin;
  auto it = firstBlockEndingAfter(begin);
  while (at < end) {
    if (it != registrations.end() && it->first <= at) {
      ++it->second.refs;
      at = it->second.end;
      ++it;
      continue;
    }
    uintptr_t gapEnd =
        it == registrations.end() ? end : std::min(end, it->first);
    if (Status error = addBlock(device, at, gapEnd)) {
      // Every block that starts before `at` was counted by this call.
      (void)unregisterLocked(device, begin, at);
      return error;
    }
    at = gapEnd;
  }
  return Status::success();
}

Status HostRegistry::unregisterLocked(Device &device, uintptr_t begin,
                                      uintptr_t end) {
  if (begin >= end)
    return Status::success();
  pageAlign(begin, end);
  Status first;
  auto it = firstBlockEndingAfter(begin);
  while (it != registrations.end() && it->first < end) {
    if (--it->second.refs == 0) {
      if (!it->second.external) {
        Status error = device.check(device.driver().cuMemHostUnregister(
                                        reinterpret_cast<void *>(it->first)),
                                    "cuMemHostUnregister");
        if (!error)
          ++unregisters;
        else if (!first)
          first = std::move(error);
      }
      it = registrations.erase(it);
    } else {
      ++it;
    }
  }
  return first;
}

bool HostRegistry::needsRegistration(Device &device, uintptr_t address) {
  if (isOurs(address))
    return true;
  unsigned type = 0;
  CUresult result = device.driver().cuPointerGetAttribute(
      &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address);
  // Unknown to the driver: pageable host memory.
  return result != CUDA_SUCCESS;
}

HostRegistry::Registrations::iterator
HostRegistry::firstBlockEndingAfter(uintptr_t address) {
  auto it = registrations.upper_bound(address);
  if (it != registrations.begin() && std::prev(it)->second.end > address)
    --it;
  return it;
}

bool HostRegistry::isOurs(uintptr_t address) {
  auto it = firstBlockEndingAfter(address);
  return it != registrations.end() && it->first <= address;
}

Status HostRegistry::addBlock(Device &device, uintptr_t begin, uintptr_t end) {
  const Driver &drv = device.driver();
  void *ptr = reinterpret_cast<void *>(begin);
  size_t size = end - begin;
  // Portable: every context of the process (every device) may use it.
  CUresult result =
      drv.cuMemHostRegister(ptr, size, CU_MEMHOSTREGISTER_PORTABLE);
  if (result == CUDA_ERROR_INVALID_VALUE)
    // Read-only pages (constant globals) register only as such.
    result = drv.cuMemHostRegister(
        ptr, size, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_READ_ONLY);
  bool external = result == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  if (!external) {
    char what[96];
    std::snprintf(what, sizeof(what), "%zu bytes at %p", size, ptr);
    KILN_TRY(device.check(result, "cuMemHostRegister", what));
    ++registers;
  }
  registrations[begin] = Registration{end, 1, external};
  return Status::success();
}
