//===- Launcher.cpp - Launches, copies and fills --------------------------===//
//
// A launch is checked in phases before anything is recorded: its shape
// (grid, block, dynamic workgroup memory) against the kernel and the
// device; its parameters decoded against the kernel's table; each memref
// placed against the device allocations or grouped into host segments to
// import or stage; each bound (aligned, within the device's descriptor
// range, or by device address); the metadata written into push constants.
// Then one command buffer is recorded and submitted. Copies and fills place
// both ranges the same way and run on the host where the memory is
// host-visible, else on the queue.
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"
#include "../KernelArgs.h"

#include <algorithm>
#include <cstring>

using namespace kiln;
using namespace kiln::vkrt;
using container::ArgKind;
using rt::readParam;

static uint64_t alignDown(uint64_t v, uint64_t a) { return v / a * a; }

/// A memref argument as the launch sees it.
struct Launcher::BufferArg {
  uint32_t argument = 0; ///< Its position among the kernel's arguments.
  uint32_t set = 0, binding = 0;
  uint64_t elementBytes = 1;
  uintptr_t aligned = 0;
  uintptr_t lo = 0, hi = 0; ///< Bytes the kernel may touch.
  /// The kernel reads its offset from push constants, so the binding may
  /// start below the first element.
  bool rebasable = false;
  /// The kernel reads {offset, sizes, strides} from push constants.
  bool metadata = false;
  bool empty = false;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
  uint32_t pushConstantOffset = container::kNoPushConstant;
  /// Bound by device address: the address goes at pushConstantOffset, the
  /// metadata (if any) 8 bytes after it.
  bool byAddress = false;
  Binding bound;
  int segment = -1;
};

Status Launcher::PushConstants::write(uint32_t offset, const void *value,
                                      size_t count) {
  if (uint64_t(offset) + count > bytes.size())
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name +
                          "' has a push-constant field outside its block; "
                          "the container is corrupt");
  std::memcpy(bytes.data() + offset, value, count);
  return Status::success();
}

Status Launcher::open() {
  // Bound for memrefs with no elements (a descriptor needs a real buffer).
  bool visible;
  return memory.createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0,
                             emptyBuffer, emptyMemory, visible,
                             "the runtime's empty buffer");
}

void Launcher::close() {
  emptyBuffer.reset();
  emptyMemory.reset();
  keptStaging.reset();
}

namespace {
/// The most a copy stages at once: larger copies go in pieces of this size,
/// so that the kept staging buffer stays bounded.
constexpr VkDeviceSize kStagingPieceBytes = 64ull << 20;
} // namespace

Expected<std::unique_ptr<Launcher::Staging>>
Launcher::takeStaging(VkDeviceSize size) {
  if (keptStaging && keptStaging->size >= size)
    return std::move(keptStaging);
  auto staging = std::make_unique<Staging>();
  KILN_TRY(memory.createStaging(
      size, staging->buffer, staging->memory, staging->mapped,
      "the staging buffer of an mgpuMemcpy (gpu.memcpy)"));
  staging->size = size;
  return staging;
}

void Launcher::keepStaging(std::unique_ptr<Staging> staging) {
  if (!keptStaging || keptStaging->size < staging->size)
    keptStaging = std::move(staging);
}

Expected<double> Launcher::deviceCopy(void *dst, const void *src, size_t size) {
  // Looked up after the wait, which releases the lock (another thread may
  // free meanwhile).
  KILN_TRY(queue.drainAll());
  auto d = reinterpret_cast<uintptr_t>(dst);
  auto s = reinterpret_cast<uintptr_t>(src);
  const Allocation *da, *sa;
  KILN_TRY(memory.locate(dst, size, "kilnVulkanDeviceCopy's destination", da));
  KILN_TRY(memory.locate(src, size, "kilnVulkanDeviceCopy's source", sa));
  if (!da || !sa || size == 0)
    return KILN_ERROR(InvalidArgument,
                      "kilnVulkanDeviceCopy: both sides must be non-empty "
                      "ranges of device allocations (mgpuMemAlloc)");
  return queue.runNow(
      [&](VkCommandBuffer cmd) {
        VkBufferCopy region{s - sa->base, d - da->base, size};
        dev.vk.vkCmdCopyBuffer(cmd, sa->buffer.get(), da->buffer.get(), 1,
                               &region);
      },
      /*timed=*/true);
}

Status Launcher::copy(void *dst, const void *src, size_t size) {
  if (size == 0)
    return Status::success();
  // Looked up after the wait, which releases the lock.
  KILN_TRY(queue.drainAll());
  auto d = reinterpret_cast<uintptr_t>(dst);
  auto s = reinterpret_cast<uintptr_t>(src);
  if (!dst || !src)
    return KILN_ERROR(InvalidArgument, "gpu.memcpy of " + std::to_string(size) +
                                           " bytes with a null pointer");
  const Allocation *da, *sa;
  KILN_TRY(memory.locate(dst, size, "gpu.memcpy's destination", da));
  KILN_TRY(memory.locate(src, size, "gpu.memcpy's source", sa));
  if (!da && !sa) {
    std::memmove(dst, src, size);
    return Status::success();
  }
  // Host-visible device memory: copy on the host.
  if ((!da || da->mapped) && (!sa || sa->mapped)) {
    void *to = da ? static_cast<char *>(da->mapped) + (d - da->base) : dst;
    const void *from =
        sa ? static_cast<char *>(sa->mapped) + (s - sa->base) : src;
    std::memmove(to, from, size);
    return Status::success();
  }
  if (da && sa) {
    return queue
        .runNow([&](VkCommandBuffer cmd) {
          VkBufferCopy region{s - sa->base, d - da->base, size};
          dev.vk.vkCmdCopyBuffer(cmd, sa->buffer.get(), da->buffer.get(), 1,
                                 &region);
        })
        .takeError();
  }
  // One side is host memory: go through a host-visible staging buffer, in
  // pieces of at most kStagingPieceBytes.
  VkDeviceSize piece = std::min<VkDeviceSize>(size, kStagingPieceBytes);
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<Staging> staging, takeStaging(piece));
  ++dev.stats.stagedCopies;
  VkBuffer device = da ? da->buffer.get() : sa->buffer.get();
  VkDeviceSize deviceOffset = da ? d - da->base : s - sa->base;
  for (VkDeviceSize done = 0; done < size; done += piece) {
    VkDeviceSize n = std::min<VkDeviceSize>(piece, size - done);
    if (da)
      std::memcpy(staging->mapped, static_cast<const char *>(src) + done, n);
    Status copied = queue
                        .runNow([&](VkCommandBuffer cmd) {
                          VkBufferCopy region{da ? 0 : deviceOffset + done,
                                              da ? deviceOffset + done : 0, n};
                          dev.vk.vkCmdCopyBuffer(
                              cmd, da ? staging->buffer.get() : device,
                              da ? device : staging->buffer.get(), 1, &region);
                        })
                        .takeError();
    if (copied) {
      // A copy that timed out still uses the staging buffer: never free it.
      if (dev.stuck) {
        staging->buffer.release();
        staging->memory.release();
      }
      return copied;
    }
    if (!da)
      std::memcpy(static_cast<char *>(dst) + done, staging->mapped, n);
  }
  keepStaging(std::move(staging));
  return Status::success();
}

Status Launcher::fill(void *dst, uint32_t pattern, unsigned patternBytes,
                      size_t count) {
  if (patternBytes == 0 || count > SIZE_MAX / patternBytes)
    return KILN_ERROR(InvalidArgument, "gpu.memset of " +
                                           std::to_string(count) + " " +
                                           std::to_string(patternBytes) +
                                           "-byte elements overflows a size");
  size_t size = count * patternBytes;
  if (size == 0)
    return Status::success();
  if (!dst)
    return KILN_ERROR(InvalidArgument, "gpu.memset of " + std::to_string(size) +
                                           " bytes with a null pointer");
  // Looked up after the wait, which releases the lock.
  KILN_TRY(queue.drainAll());
  auto d = reinterpret_cast<uintptr_t>(dst);
  const Allocation *da;
  KILN_TRY(memory.locate(dst, size, "gpu.memset", da));
  auto fillHost = [&](void *to) {
    for (size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<char *>(to) + i * patternBytes, &pattern,
                  patternBytes);
  };
  if (!da) {
    fillHost(dst);
    return Status::success();
  }
  if (da->mapped) {
    fillHost(static_cast<char *>(da->mapped) + (d - da->base));
    return Status::success();
  }
  uint64_t offset = d - da->base;
  if (patternBytes == 2)
    pattern = (pattern & 0xFFFF) | (pattern << 16);
  if (offset % 4 == 0 && size % 4 == 0) {
    return queue
        .runNow([&](VkCommandBuffer cmd) {
          dev.vk.vkCmdFillBuffer(cmd, da->buffer.get(), offset, size, pattern);
        })
        .takeError();
  }
  std::vector<uint8_t> host(size);
  fillHost(host.data());
  return copy(dst, host.data(), size);
}

Expected<uint32_t> Launcher::checkShape(const Kernel *kernel,
                                        const intptr_t grid[3],
                                        const intptr_t block[3],
                                        int64_t dynamicSharedBytes) const {
  const container::KernelInfo *info = kernel->info;
  const VkPhysicalDeviceLimits &limits = dev.properties.limits;
  const char *axes = "xyz";
  // An empty grid is refused, as CUDA refuses it: a launch that silently
  // does nothing hides a wrong size computation.
  for (int i = 0; i < 3; ++i)
    if (grid[i] < 1 || uint64_t(grid[i]) > limits.maxComputeWorkGroupCount[i])
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name + "' launched with " +
                            std::to_string(grid[i]) + " workgroups in " +
                            axes[i] + "; device '" + dev.properties.deviceName +
                            "' allows 1 to " +
                            std::to_string(limits.maxComputeWorkGroupCount[i]) +
                            " (maxComputeWorkGroupCount)");
  if (info)
    for (int i = 0; i < 3; ++i)
      if (uint64_t(block[i]) != info->workgroupSize[i])
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + kernel->name + "' was compiled for workgroup size (" +
                std::to_string(info->workgroupSize[0]) + ", " +
                std::to_string(info->workgroupSize[1]) + ", " +
                std::to_string(info->workgroupSize[2]) +
                ") but is launched with block size (" +
                std::to_string(block[0]) + ", " + std::to_string(block[1]) +
                ", " + std::to_string(block[2]) + ")");

  // Dynamic workgroup memory: the kernel's array is specialized to the
  // launch's size (whole elements, at least one), within the device's limit
  // together with the kernel's static workgroup memory.
  uint32_t elementBytes = info ? info->dynamicWorkgroupElementBytes : 0;
  uint32_t dynamicElements = 0;
  if (dynamicSharedBytes < 0)
    return KILN_ERROR(InvalidArgument, "kernel '" + kernel->name +
                                           "' launched with " +
                                           std::to_string(dynamicSharedBytes) +
                                           " bytes of dynamic shared memory");
  if (elementBytes == 0 && dynamicSharedBytes != 0)
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name + "' launched with " +
                          std::to_string(dynamicSharedBytes) +
                          " bytes of dynamic shared memory, but it has none "
                          "(no gpu.dynamic_shared_memory): a Vulkan kernel's "
                          "other workgroup memory is fixed when it is "
                          "compiled");
  if (elementBytes != 0) {
    uint64_t elements = std::max<uint64_t>(
        1, (uint64_t(dynamicSharedBytes) + elementBytes - 1) / elementBytes);
    uint64_t total = info->staticWorkgroupBytes + elements * elementBytes;
    if (total > limits.maxComputeSharedMemorySize)
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name + "' launched with " +
                            std::to_string(dynamicSharedBytes) +
                            " bytes of dynamic shared memory; with its " +
                            std::to_string(info->staticWorkgroupBytes) +
                            " bytes of static workgroup memory that is " +
                            std::to_string(total) + " bytes, above device '" +
                            dev.properties.deviceName + "''s limit of " +
                            std::to_string(limits.maxComputeSharedMemorySize) +
                            " (maxComputeSharedMemorySize)");
    dynamicElements = uint32_t(elements);
  }

  return dynamicElements;
}

Status Launcher::decode(Kernel *kernel, void **params, size_t paramsCount,
                        std::vector<BufferArg> &buffers, PushConstants &pc) {
  const container::KernelInfo *info = kernel->info;
  // Decode the arguments.
  if (info) {
    size_t expected = rt::paramCount(*info);
    if (paramsCount != expected)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name + "' takes " + std::to_string(expected) +
              " parameters (memrefs as allocated, aligned, offset, sizes, "
              "strides), but the launch passed " +
              std::to_string(paramsCount));
    size_t p = 0;
    for (const container::ArgInfo &a : info->args) {
      if (a.kind == ArgKind::Scalar) {
        uint8_t field[8];
        unsigned bytes = 0;
        if (std::string why = rt::scalarEncodingError(
                rt::encodeScalar(a, params[p++], field, bytes), kernel->name,
                &a - info->args.data());
            !why.empty())
          return KILN_ERROR(InvalidArgument, why);
        KILN_TRY(pc.write(a.pushConstantOffset, field, bytes));
        continue;
      }
      BufferArg b;
      b.argument = &a - info->args.data();
      b.set = a.set;
      b.binding = a.binding;
      rt::MemRefParams m = rt::readMemRef(a, params + p);
      if (std::string why = rt::checkBaseAlignment(a, m); !why.empty())
        return KILN_ERROR(InvalidArgument,
                          "kernel '" + kernel->name + "' argument " +
                              std::to_string(b.argument) + " " + why);
      b.elementBytes = m.elementBytes;
      b.aligned = m.aligned;
      b.offset = m.offset;
      b.sizes = std::move(m.sizes);
      b.strides = std::move(m.strides);
      b.lo = m.lo;
      b.hi = m.hi;
      b.empty = m.empty;
      p += 3 + 2 * a.rank;
      b.pushConstantOffset = a.pushConstantOffset;
      b.byAddress = container::isAddressKind(a.kind);
      b.rebasable = a.hasRebasableOffset();
      b.metadata = a.hasMetadata();
      buffers.push_back(std::move(b));
    }
  } else {
    if (paramsCount % 2 != 0)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name +
              "' (raw SPIR-V) takes {pointer, size} pairs, but the launch "
              "passed " +
              std::to_string(paramsCount) + " parameters");
    if (kernel->rawBuffers != paramsCount / 2)
      KILN_TRY(rebuildPipeline(kernel, paramsCount / 2));
    for (size_t i = 0; i < paramsCount; i += 2) {
      BufferArg b;
      b.argument = i / 2;
      b.binding = i / 2;
      b.aligned = readParam<uintptr_t>(params[i]);
      int64_t bytes = readParam<int64_t>(params[i + 1]);
      b.lo = b.aligned;
      b.hi = b.aligned + std::max<int64_t>(bytes, 0);
      b.empty = bytes <= 0;
      buffers.push_back(std::move(b));
    }
  }

  return Status::success();
}

Status Launcher::place(const Kernel *kernel, std::vector<BufferArg> &buffers,
                       std::vector<HostSegment> &segments) {
  // Find each buffer's memory: device allocations, else host memory grouped
  // into segments (overlapping views of one host buffer share one).
  std::vector<size_t> hostArgs;
  for (size_t i = 0; i < buffers.size(); ++i) {
    BufferArg &b = buffers[i];
    if (b.empty)
      continue;
    const Allocation *a;
    if (Status where = memory.locate(reinterpret_cast<const void *>(b.lo),
                                     b.hi - b.lo, "a memref", a))
      return KILN_ERROR(InvalidArgument, "kernel '" + kernel->name +
                                             "' argument " +
                                             std::to_string(b.argument) + ": " +
                                             where.message());
    if (a) {
      b.bound.buffer = a->buffer.get();
      b.bound.offset = b.lo - a->base;
      continue;
    }
    // Not this device's memory: a range that starts or ends in another
    // device's allocation is refused (imported as host memory, the kernel
    // would see a stale copy at best); anything else is host memory.
    KILN_TRY(dev.place.checkLaunchMemory(kernel->name, b.argument, b.lo));
    KILN_TRY(dev.place.checkLaunchMemory(kernel->name, b.argument, b.hi - 1));
    hostArgs.push_back(i);
  }
  std::sort(hostArgs.begin(), hostArgs.end(),
            [&](size_t x, size_t y) { return buffers[x].lo < buffers[y].lo; });
  for (size_t i : hostArgs) {
    BufferArg &b = buffers[i];
    if (segments.empty() || b.lo > segments.back().hi) {
      HostSegment seg;
      seg.lo = b.lo;
      seg.hi = b.hi;
      segments.push_back(std::move(seg));
    } else {
      segments.back().hi = std::max(segments.back().hi, b.hi);
    }
    b.segment = segments.size() - 1;
  }
  KILN_TRY(memory.mapSegments(segments, kernel->name));

  return Status::success();
}

/// The elements between `boundAt`, where the kernel's view of `b` starts,
/// and the memref's aligned pointer (added to its offset in push
/// constants); an error when a rebasable memref's distance is not whole
/// elements.
Status Launcher::shiftTo(const Kernel *kernel, BufferArg &b,
                         uintptr_t boundAt) {
  int64_t delta = int64_t(b.aligned) - int64_t(boundAt);
  if (b.rebasable && delta % int64_t(b.elementBytes) != 0)
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name + "' argument " +
                          std::to_string(b.argument) +
                          ": the memref's aligned pointer is not a multiple "
                          "of its element size");
  b.bound.elementShift = delta / int64_t(b.elementBytes);
  return Status::success();
}

Status Launcher::bind(const Kernel *kernel, std::vector<BufferArg> &buffers,
                      const std::vector<HostSegment> &segments) const {
  const VkPhysicalDeviceLimits &limits = dev.properties.limits;
  // Bind: descriptor offsets must be aligned; kernels that read their offset
  // from push constants absorb the difference.
  uint64_t alignment =
      std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1);
  for (BufferArg &b : buffers) {
    if (b.byAddress && !dev.deviceAddresses)
      return KILN_ERROR(Unsupported,
                        "kernel '" + kernel->name +
                            "' binds a memref by buffer device "
                            "address, but device '" +
                            dev.properties.deviceName +
                            "' has no bufferDeviceAddress; compile it with "
                            "--buffer-device-address=never");
    if (b.empty) {
      b.bound.buffer = emptyBuffer.get();
      b.bound.offset = 0;
      // One byte, less than any element a kernel reads its size from: a
      // kernel that reads an empty memref's size from the binding
      // (OpArrayLength, docs/abi.md) reads 0.
      b.bound.range = 1;
      continue;
    }
    uintptr_t base = 0;
    if (b.segment >= 0) {
      b.bound.buffer = segments[b.segment].buffer.get();
      base = segments[b.segment].base;
      b.bound.offset = b.lo - base;
    } else {
      base = b.lo - b.bound.offset;
    }
    if (b.byAddress) {
      // No descriptor, so no range limit and no offset alignment: the
      // kernel gets the address of the first byte it may touch.
      VkBufferDeviceAddressInfo info{
          VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
      info.buffer = b.bound.buffer;
      b.bound.address =
          dev.vk.vkGetBufferDeviceAddress(dev.device, &info) + b.bound.offset;
      // The kernel's loads and stores promise their scalar's alignment.
      uint64_t scalarAlign = b.elementBytes & -b.elementBytes;
      if (b.bound.address % std::min<uint64_t>(scalarAlign, 8))
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + kernel->name + "' argument " +
                std::to_string(b.argument) +
                " (bound by device address) starts at an address that is not "
                "a multiple of its element size");
      KILN_TRY(shiftTo(kernel, b, b.lo));
      continue;
    }
    uint64_t bindOffset = alignDown(b.bound.offset, alignment);
    if (bindOffset != b.bound.offset && !b.rebasable)
      return KILN_ERROR(
          Unsupported,
          "kernel '" + kernel->name + "' argument at binding " +
              std::to_string(b.binding) +
              " starts at an address that is not a "
              "multiple of the device's minStorageBufferOffsetAlignment (" +
              std::to_string(alignment) +
              "); a memref of static shape or identity layout is bound at "
              "its first element: pass an aligned buffer, or give the "
              "memref a dynamic offset (strided<[...], offset: ?>)");
    b.bound.offset = bindOffset;
    b.bound.range = b.hi - (base + bindOffset);
    if (b.bound.range > limits.maxStorageBufferRange)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name + "' argument at binding " +
              std::to_string(b.binding) + " spans " +
              std::to_string(b.bound.range) + " bytes, above device '" +
              dev.properties.deviceName + "''s limit of " +
              std::to_string(limits.maxStorageBufferRange) +
              " (maxStorageBufferRange) for a storage-buffer descriptor; " +
              (dev.deviceAddresses
                   ? "compile with --buffer-device-address=always to bind it "
                     "by address instead"
                   : "the device has no bufferDeviceAddress to bind it by "
                     "address instead"));
    if (b.rebasable)
      KILN_TRY(shiftTo(kernel, b, base + bindOffset));
  }

  return Status::success();
}

Status Launcher::writeMetadata(const Kernel *kernel,
                               const std::vector<BufferArg> &buffers,
                               PushConstants &pc) const {
  // Metadata of dynamic memrefs into push constants.
  unsigned indexBytes = kernel->module->info.indexBits / 8;
  for (const BufferArg &b : buffers) {
    if (b.byAddress)
      KILN_TRY(pc.write(b.pushConstantOffset, &b.bound.address, 8));
    if (!b.metadata)
      continue;
    uint32_t metadataOffset = b.pushConstantOffset + (b.byAddress ? 8 : 0);
    std::vector<int64_t> fields;
    fields.push_back(b.empty || !b.rebasable ? 0
                                             : b.offset + b.bound.elementShift);
    fields.insert(fields.end(), b.sizes.begin(), b.sizes.end());
    fields.insert(fields.end(), b.strides.begin(), b.strides.end());
    for (size_t f = 0; f < fields.size(); ++f) {
      if (indexBytes == 4) {
        if (fields[f] > INT32_MAX || fields[f] < INT32_MIN)
          return KILN_ERROR(InvalidArgument,
                            "kernel '" + kernel->name +
                                "' argument at binding " +
                                std::to_string(b.binding) +
                                " has an offset, size or stride "
                                "of " +
                                std::to_string(fields[f]) +
                                ", which does not fit the kernel's 32-bit "
                                "index (compile with "
                                "use-64bit-index)");
        int32_t v = int32_t(fields[f]);
        KILN_TRY(pc.write(metadataOffset + f * 4, &v, 4));
      } else {
        KILN_TRY(pc.write(metadataOffset + f * 8, &fields[f], 8));
      }
    }
  }

  return Status::success();
}

Status Launcher::record(Kernel *kernel, VkPipeline pipeline,
                        const intptr_t grid[3],
                        const std::vector<BufferArg> &buffers,
                        std::vector<HostSegment> &segments,
                        const PushConstants &pc, Stream *stream) {
  KILN_ASSIGN_OR_RETURN(Submission * s,
                        queue.acquire(std::max<size_t>(buffers.size(), 1)));
  // Until it is submitted, a failure returns it (and releases the host
  // memory it holds without copying back).
  ScopeExit unused([&] { queue.giveBack(s); });
  s->segments = std::move(segments);
  std::vector<VkDescriptorSet> sets(kernel->setLayouts.size());
  if (!sets.empty()) {
    std::vector<VkDescriptorSetLayout> layouts;
    for (const Owned<VkDescriptorSetLayout> &layout : kernel->setLayouts)
      layouts.push_back(layout.get());
    VkDescriptorSetAllocateInfo alloc{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = s->pool.get();
    alloc.descriptorSetCount = sets.size();
    alloc.pSetLayouts = layouts.data();
    KILN_VK_ON(dev,
               dev.vk.vkAllocateDescriptorSets(dev.device, &alloc, sets.data()),
               "vkAllocateDescriptorSets");
  }
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].byAddress)
      continue;
    infos[i] = {buffers[i].bound.buffer, buffers[i].bound.offset,
                buffers[i].bound.range};
    VkWriteDescriptorSet &w = writes.emplace_back();
    w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = sets[buffers[i].set];
    w.dstBinding = buffers[i].binding;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &infos[i];
  }
  if (!writes.empty())
    dev.vk.vkUpdateDescriptorSets(dev.device, writes.size(), writes.data(), 0,
                                  nullptr);

  KILN_TRY(queue.begin(s->cmd));
  // Order after everything submitted before (one queue, many submissions).
  queue.memoryBarrier(
      s->cmd,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
          VK_PIPELINE_STAGE_HOST_BIT,
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
          VK_ACCESS_HOST_WRITE_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  if (queue.timing)
    queue.writeTimestamp(s, 0);
  dev.vk.vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (!sets.empty())
    dev.vk.vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                                   kernel->layout.get(), 0, sets.size(),
                                   sets.data(), 0, nullptr);
  if (!pc.bytes.empty())
    dev.vk.vkCmdPushConstants(s->cmd, kernel->layout.get(),
                              VK_SHADER_STAGE_COMPUTE_BIT, 0, pc.bytes.size(),
                              pc.bytes.data());
  dev.vk.vkCmdDispatch(s->cmd, grid[0], grid[1], grid[2]);
  if (queue.timing)
    queue.writeTimestamp(s, 1);
  queue.memoryBarrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                      VK_ACCESS_HOST_READ_BIT);
  KILN_VK_ON(dev, dev.vk.vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
  s->kernel = kernel->name;
  s->timed = queue.timing;
  KILN_TRY(dev.checkValidation());
  KILN_TRY(queue.submit(s, stream ? stream : queue.defaultStream()));
  unused.dismiss();
  ++dev.stats.launches;
  return Status::success();
  return Status::success();
}

Status Launcher::launch(Kernel *kernel, const intptr_t grid[3],
                        const intptr_t block[3], int64_t dynamicSharedBytes,
                        Stream *stream, void **params, size_t paramsCount) {
  if (!kernel)
    return KILN_ERROR(InvalidArgument, "mgpuLaunchKernel with a null function");
  KILN_ASSIGN_OR_RETURN(uint32_t dynamicElements,
                        checkShape(kernel, grid, block, dynamicSharedBytes));
  const container::KernelInfo *info = kernel->info;
  std::vector<BufferArg> buffers;
  PushConstants pc{kernel,
                   std::vector<uint8_t>(info ? info->pushConstantSize : 0)};
  KILN_TRY(decode(kernel, params, paramsCount, buffers, pc));

  // A memref beyond the device's descriptor range (bound from an aligned
  // offset below its first byte): the kernel's address variant, if it has
  // one, binds it by device address (docs/abi.md).
  if (info && info->addressVariant && dev.deviceAddresses) {
    const VkPhysicalDeviceLimits &limits = dev.properties.limits;
    uint64_t range = limits.maxStorageBufferRange;
    uint64_t slack = std::min<uint64_t>(
        std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1), range);
    if (std::any_of(buffers.begin(), buffers.end(), [&](const BufferArg &b) {
          return !b.byAddress && !b.empty && b.hi - b.lo > range - slack;
        })) {
      const container::KernelInfo &variant =
          kernel->module->info.kernels[info->addressVariant - 1];
      KILN_ASSIGN_OR_RETURN(
          Kernel * byAddress,
          executables.getKernel(kernel->module, variant.name.c_str()));
      return launch(byAddress, grid, block, dynamicSharedBytes, stream, params,
                    paramsCount);
    }
  }

  std::vector<HostSegment> segments;
  KILN_TRY(place(kernel, buffers, segments));
  KILN_TRY(bind(kernel, buffers, segments));
  KILN_TRY(writeMetadata(kernel, buffers, pc));
  VkPipeline pipeline = kernel->pipeline.get();
  if (dynamicElements) {
    KILN_ASSIGN_OR_RETURN(pipeline,
                          executables.sizedPipeline(kernel, dynamicElements));
  }
  return record(kernel, pipeline, grid, buffers, segments, pc, stream);
}

Status Launcher::rebuildPipeline(Kernel *kernel, size_t rawBuffers) {
  if (kernel->pipeline) {
    KILN_TRY(queue.drainAll());
    // Another thread may have rebuilt it while the lock was released.
    if (kernel->rawBuffers == rawBuffers)
      return Status::success();
  }
  return executables.createPipeline(kernel, rawBuffers);
}
