//===- Memory.cpp - A device's allocations, staging and host import -------===//
//
// gpu.alloc memory is a buffer of its own at a host address nothing can
// touch (device-local) or at its mapping (host-shared); locate places every
// range a copy, fill or launch names against those allocations. A launch's
// host memory is imported where the driver takes it, else staged through a
// host-visible buffer aligned like the host range.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "../Format.h"
#include "../Ranges.h"

#include <algorithm>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::vkrt;
using rt::describeBytes;

static uint64_t alignDown(uint64_t v, uint64_t a) { return v / a * a; }
static uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

Reservation &Reservation::operator=(Reservation &&other) noexcept {
  if (this != &other) {
    reset();
    base_ = other.base_;
    bytes_ = other.bytes_;
    other.base_ = 0;
    other.bytes_ = 0;
  }
  return *this;
}

bool Reservation::reserve(uint64_t bytes) {
  reset();
  void *p = mmap(nullptr, bytes, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return false;
  base_ = reinterpret_cast<uintptr_t>(p);
  bytes_ = bytes;
  return true;
}

void Reservation::reset() {
  if (bytes_)
    munmap(reinterpret_cast<void *>(base_), bytes_);
  base_ = 0;
  bytes_ = 0;
}

uint32_t Memory::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want,
                                VkMemoryPropertyFlags avoid) const {
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < dev.memoryProperties.memoryTypeCount; ++i) {
      VkMemoryPropertyFlags flags =
          dev.memoryProperties.memoryTypes[i].propertyFlags;
      if (!(typeBits & (1u << i)) || (flags & want) != want)
        continue;
      if (pass == 0 && (flags & avoid))
        continue;
      return i;
    }
  return UINT32_MAX;
}

Status Memory::outOfMemory(const std::string &purpose, uint64_t bytes,
                           const char *call, VkResult result, const char *file,
                           int line) const {
  return rt::makeCallError(
      rt::ErrorKind::OutOfMemory,
      "cannot allocate " + describeBytes(bytes) + " for " + purpose +
          " on device '" + dev.properties.deviceName + "', which has " +
          describeBytes(deviceLocalBytes(dev.memoryProperties)) +
          " of device-local memory: " + call +
          " failed: " + vk::resultName(result),
      call, vk::resultName(result), result, file, line);
}

Status Memory::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                            VkMemoryPropertyFlags want, Owned<VkBuffer> &buffer,
                            Owned<VkDeviceMemory> &memory, bool &hostVisible,
                            const std::string &purpose) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<VkDeviceSize>(size, 16);
  info.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (dev.deviceAddresses)
    info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  // Both are released if anything below fails.
  Owned<VkBuffer> newBuffer(dev.device, dev.vk.vkDestroyBuffer);
  Owned<VkDeviceMemory> newMemory(dev.device, dev.vk.vkFreeMemory);
  if (VkResult r =
          dev.vk.vkCreateBuffer(dev.device, &info, nullptr, newBuffer.out());
      r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
    return outOfMemory(purpose, info.size, "vkCreateBuffer", r, __FILE__,
                       __LINE__);
  else
    KILN_VK_ON(dev, r, "vkCreateBuffer");
  VkMemoryRequirements req;
  dev.vk.vkGetBufferMemoryRequirements(dev.device, newBuffer.get(), &req);
  uint32_t type = findMemoryType(req.memoryTypeBits, want);
  if (type == UINT32_MAX)
    type = findMemoryType(req.memoryTypeBits, 0);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  VkMemoryAllocateFlagsInfo allocFlags{
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  allocFlags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (dev.deviceAddresses)
    alloc.pNext = &allocFlags;
  VkResult result =
      dev.vk.vkAllocateMemory(dev.device, &alloc, nullptr, newMemory.out());
  if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
      result == VK_ERROR_OUT_OF_HOST_MEMORY)
    return outOfMemory(purpose, req.size, "vkAllocateMemory", result, __FILE__,
                       __LINE__);
  KILN_VK_ON(dev, result, "vkAllocateMemory");
  KILN_VK_ON(dev,
             dev.vk.vkBindBufferMemory(dev.device, newBuffer.get(),
                                       newMemory.get(), 0),
             "vkBindBufferMemory");
  VkMemoryPropertyFlags flags =
      dev.memoryProperties.memoryTypes[type].propertyFlags;
  hostVisible = (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
                (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  buffer = std::move(newBuffer);
  memory = std::move(newMemory);
  return Status::success();
}

Expected<void *> Memory::allocate(uint64_t size, bool hostShared) {
  Allocation a;
  a.size = size;
  bool visible = false;
  VkMemoryPropertyFlags want = hostShared
                                   ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                   : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  // Sizes near 2^64 would wrap in the rounding below.
  if (size > (UINT64_C(1) << 62))
    return KILN_ERROR(
        OutOfMemory,
        "cannot allocate " + describeBytes(size) + " for " +
            (hostShared ? "a host-shared mgpuMemAlloc" : "an mgpuMemAlloc") +
            " (gpu.alloc) on device '" + dev.properties.deviceName +
            "': larger than any device's memory");
  KILN_TRY(createBuffer(alignUp(std::max<uint64_t>(size, 1), 16),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, want, a.buffer,
                        a.memory, visible,
                        hostShared ? "a host-shared mgpuMemAlloc (gpu.alloc)"
                                   : "an mgpuMemAlloc (gpu.alloc)"));
  if (visible)
    KILN_VK_ON(dev,
               dev.vk.vkMapMemory(dev.device, a.memory.get(), 0, VK_WHOLE_SIZE,
                                  0, &a.mapped),
               "vkMapMemory");
  if (hostShared) {
    if (!a.mapped)
      return KILN_ERROR(Unsupported,
                        "no host-visible memory for a host-shared gpu.alloc");
    a.base = reinterpret_cast<uintptr_t>(a.mapped);
  } else {
    // A unique address range nobody can touch: the host sees a pointer it may
    // do arithmetic on and pass back, never dereference.
    uint64_t bytes =
        alignUp(std::max<uint64_t>(size, 1), sysconf(_SC_PAGESIZE));
    if (!a.reserved.reserve(bytes))
      return KILN_ERROR(OutOfMemory, "cannot reserve " + std::to_string(bytes) +
                                         " bytes of address space for a device "
                                         "allocation");
    a.base = a.reserved.base();
  }
  uintptr_t base = a.base;
  allocations.emplace(base, std::move(a));
  return reinterpret_cast<void *>(base);
}

Status Memory::locate(const void *ptr, size_t size, const char *what,
                      const Allocation *&found) const {
  found = nullptr;
  auto lo = reinterpret_cast<uintptr_t>(ptr);
  auto place = rt::placeRange(
      allocations, lo, lo, size, [](auto &e) { return e.second.base; },
      [](auto &e) { return e.second.size; });
  switch (place.fit) {
  case rt::RangeFit::Outside:
    return Status::success();
  case rt::RangeFit::Inside:
    found = &place.at->second;
    return Status::success();
  case rt::RangeFit::Wraps:
    return KILN_ERROR(InvalidArgument, std::string(what) + " of " +
                                           std::to_string(size) + " bytes at " +
                                           std::to_string(lo) +
                                           " wraps around the address space");
  case rt::RangeFit::Past:
  case rt::RangeFit::Into:
    break;
  }
  const Allocation &touched = place.at->second;
  return KILN_ERROR(InvalidArgument,
                    std::string(what) + " of " + std::to_string(size) +
                        " bytes at offset " +
                        std::to_string(int64_t(lo - touched.base)) + " of a " +
                        std::to_string(touched.size) +
                        "-byte device allocation (gpu.alloc) reaches past "
                        "its bounds");
}

bool Memory::isAllocation(const void *ptr) const {
  return allocations.count(reinterpret_cast<uintptr_t>(ptr)) != 0;
}

Status Memory::release(void *ptr) {
  auto it = allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations.end())
    return KILN_ERROR(InvalidArgument,
                      "gpu.dealloc of a pointer that gpu.alloc did not return");
  allocations.erase(it); // Its owners release the buffer, memory and range.
  return Status::success();
}

Status Memory::createStaging(VkDeviceSize size, Owned<VkBuffer> &buffer,
                             Owned<VkDeviceMemory> &memory, void *&mapped,
                             const std::string &purpose) {
  bool visible;
  KILN_TRY(createBuffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        buffer, memory, visible, purpose));
  if (!visible)
    return KILN_ERROR(Unsupported, "no host-visible coherent memory for " +
                                       purpose + " on device '" +
                                       dev.properties.deviceName + "'");
  KILN_VK_ON(dev,
             dev.vk.vkMapMemory(dev.device, memory.get(), 0, VK_WHOLE_SIZE, 0,
                                &mapped),
             "vkMapMemory");
  return Status::success();
}

Expected<bool> Memory::importSegment(HostSegment &segment) {
  uintptr_t lo = alignDown(segment.lo, dev.importAlignment);
  uintptr_t hi = alignUp(segment.hi, dev.importAlignment);
  VkMemoryHostPointerPropertiesEXT hostProps{
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  VkResult r = dev.vk.vkGetMemoryHostPointerPropertiesEXT(
      dev.device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
      reinterpret_cast<void *>(lo), &hostProps);
  if (r == VK_SUCCESS && hostProps.memoryTypeBits) {
    VkExternalMemoryBufferCreateInfo external{
        VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes =
        VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.pNext = &external;
    info.size = hi - lo;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (dev.deviceAddresses)
      info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    segment.buffer = {dev.device, dev.vk.vkDestroyBuffer};
    segment.memory = {dev.device, dev.vk.vkFreeMemory};
    KILN_VK_ON(
        dev,
        dev.vk.vkCreateBuffer(dev.device, &info, nullptr, segment.buffer.out()),
        "vkCreateBuffer");
    VkMemoryRequirements req;
    dev.vk.vkGetBufferMemoryRequirements(dev.device, segment.buffer.get(),
                                         &req);
    uint32_t type =
        findMemoryType(req.memoryTypeBits & hostProps.memoryTypeBits, 0);
    VkImportMemoryHostPointerInfoEXT import{
        VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
    import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    import.pHostPointer = reinterpret_cast<void *>(lo);
    VkMemoryAllocateFlagsInfo flags{
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (dev.deviceAddresses)
      import.pNext = &flags;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.pNext = &import;
    alloc.allocationSize = hi - lo;
    alloc.memoryTypeIndex = type;
    if (type != UINT32_MAX && req.size <= hi - lo &&
        dev.vk.vkAllocateMemory(dev.device, &alloc, nullptr,
                                segment.memory.out()) == VK_SUCCESS) {
      KILN_VK_ON(dev,
                 dev.vk.vkBindBufferMemory(dev.device, segment.buffer.get(),
                                           segment.memory.get(), 0),
                 "vkBindBufferMemory");
      segment.base = lo;
      ++dev.stats.hostImports;
      return true;
    }
    // The driver refused this range (e.g. not its kind of memory):
    // stage it instead.
    segment.buffer.reset();
    segment.memory.reset();
  }
  return false;
}

Status Memory::mapSegments(std::vector<HostSegment> &segments,
                           const std::string &kernel) {
  for (HostSegment &seg : segments) {
    if (dev.hostImport) {
      KILN_ASSIGN_OR_RETURN(bool imported, importSegment(seg));
      if (imported)
        continue;
    }
    // Staging: a host-visible buffer whose byte 0 is congruent to the host
    // range's start modulo 256, so offset alignment carries over.
    uintptr_t lo = alignDown(seg.lo, 256);
    KILN_TRY(
        createStaging(seg.hi - lo, seg.buffer, seg.memory, seg.mapped,
                      "staging the host memory of kernel '" + kernel + "'"));
    std::memcpy(static_cast<char *>(seg.mapped) + (seg.lo - lo),
                reinterpret_cast<void *>(seg.lo), seg.hi - seg.lo);
    seg.base = lo;
    seg.staged = true;
    ++dev.stats.stagedCopies;
  }
  return Status::success();
}

void Memory::releaseSegment(HostSegment &seg, bool copyBack) {
  if (seg.staged && copyBack)
    std::memcpy(reinterpret_cast<void *>(seg.lo),
                static_cast<char *>(seg.mapped) + (seg.lo - seg.base),
                seg.hi - seg.lo);
  seg.buffer.reset();
  seg.memory.reset();
  seg.staged = false;
}
