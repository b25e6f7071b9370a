//===- Launcher.h - Launches, copies and fills over a device ----*- C++ -*-===//
//
// The top unit of the Vulkan runtime: what records commands over the units
// below it (Memory for where each range lives, Executables for pipelines,
// Queue for submissions). A launch is checked in phases, each its own
// function, before anything is recorded; copies and fills place both their
// ranges against the device allocations first.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_LAUNCHER_H
#define KILN_RUNTIME_VULKAN_LAUNCHER_H

#include "Device.h"
#include "Executable.h"
#include "Memory.h"
#include "Queue.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::vkrt {

/// Where a memref argument lives on the device.
struct Binding {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;
  /// Elements between the bound offset and the descriptor's aligned pointer
  /// (added to the memref's offset in push constants).
  int64_t elementShift = 0;
  /// Bound by device address: the address of byte `offset` of `buffer`.
  VkDeviceAddress address = 0;
};

class Launcher {
public:
  Launcher(Device &device, Memory &memory, Executables &executables,
           Queue &queue)
      : dev(device), memory(memory), executables(executables), queue(queue) {}
  Launcher(const Launcher &) = delete;
  Launcher &operator=(const Launcher &) = delete;

  /// The empty buffer memrefs with no elements are bound to, made when the
  /// device opens and released before it closes.
  Status open();
  void close();

  /// Launches `kernel`; `dynamicSharedBytes` sizes its dynamic workgroup
  /// memory (gpu.dynamic_shared_memory), checked against the device.
  Status launch(Kernel *kernel, const intptr_t grid[3], const intptr_t block[3],
                int64_t dynamicSharedBytes, Stream *stream, void **params,
                size_t paramsCount);
  /// gpu.memcpy: on the host where both sides are host-visible, else on the
  /// queue (through a staging buffer for host memory), waited for.
  Status copy(void *dst, const void *src, size_t size);
  /// vkCmdCopyBuffer between two device allocations, waited for; the GPU
  /// microseconds between timestamps around it, or -1 without timestamps.
  Expected<double> deviceCopy(void *dst, const void *src, size_t size);
  /// gpu.memset of `count` elements of `patternBytes` bytes.
  Status fill(void *dst, uint32_t pattern, unsigned patternBytes, size_t count);

private:
  /// A host-visible buffer that copies between host memory and device-local
  /// memory go through. One is kept between copies: allocating and mapping
  /// host-visible memory costs as much as a small copy on a GPU driver
  /// (about 0.7 ms on NVIDIA's). A copy takes it out while it uses it, so a
  /// copy on another thread (a wait releases the lock) makes its own.
  struct Staging {
    Owned<VkBuffer> buffer;
    Owned<VkDeviceMemory> memory;
    void *mapped = nullptr;
    VkDeviceSize size = 0;
  };
  /// A staging buffer of at least `size` bytes: the kept one, or a new one.
  Expected<std::unique_ptr<Staging>> takeStaging(VkDeviceSize size);
  /// Keeps `staging` for the next copy (the larger of it and the kept one).
  void keepStaging(std::unique_ptr<Staging> staging);

  struct BufferArg;
  /// A launch's push-constant block; writes outside it are errors (a
  /// corrupt container's offsets).
  struct PushConstants {
    const Kernel *kernel;
    std::vector<uint8_t> bytes;
    Status write(uint32_t offset, const void *value, size_t count);
  };

  /// The grid, block and dynamic workgroup memory against the kernel and
  /// the device: the length of the dynamic workgroup array (0 for none).
  Expected<uint32_t> checkShape(const Kernel *kernel, const intptr_t grid[3],
                                const intptr_t block[3],
                                int64_t dynamicSharedBytes) const;
  /// The parameters against the kernel's table: scalars into push
  /// constants, memrefs into `buffers`.
  Status decode(Kernel *kernel, void **params, size_t paramsCount,
                std::vector<BufferArg> &buffers, PushConstants &pc);
  /// Each memref's memory: a device allocation that holds it all, else a
  /// host segment (overlapping views of one host buffer share one),
  /// imported or staged.
  Status place(const Kernel *kernel, std::vector<BufferArg> &buffers,
               std::vector<HostSegment> &segments);
  /// Each memref's descriptor range or device address, within the device's
  /// limits.
  Status bind(const Kernel *kernel, std::vector<BufferArg> &buffers,
              const std::vector<HostSegment> &segments) const;
  /// The elements between `boundAt`, where the kernel's view of `b`
  /// starts, and the memref's aligned pointer.
  static Status shiftTo(const Kernel *kernel, BufferArg &b, uintptr_t boundAt);
  /// Addresses and {offset, sizes, strides} into push constants.
  Status writeMetadata(const Kernel *kernel,
                       const std::vector<BufferArg> &buffers,
                       PushConstants &pc) const;
  /// Records the dispatch into a submission and submits it on `stream`.
  Status record(Kernel *kernel, VkPipeline pipeline, const intptr_t grid[3],
                const std::vector<BufferArg> &buffers,
                std::vector<HostSegment> &segments, const PushConstants &pc,
                Stream *stream);
  /// The layout and pipeline of raw SPIR-V `kernel` for `rawBuffers`
  /// buffers: made again (after the queue drains) when a launch passes
  /// another count.
  Status rebuildPipeline(Kernel *kernel, size_t rawBuffers);

  Device &dev;
  std::unique_ptr<Staging> keptStaging;
  Memory &memory;
  Executables &executables;
  Queue &queue;
  Owned<VkDeviceMemory> emptyMemory;
  Owned<VkBuffer> emptyBuffer;
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_LAUNCHER_H
