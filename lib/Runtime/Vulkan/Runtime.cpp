//===- Runtime.cpp - The mgpu* ABI and Kiln's entry points on Vulkan -------===//

#include "Context.h"
#include "../FillResource.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace kiln;
using namespace kiln::vkrt;

namespace {
/// Locks the context for one entry point; waits for the device inside it
/// release the lock (Context::heldLock) so that other threads go on.
struct Locked {
  Locked() : context(Context::get()), lock(context.mutex) {
    outer = Context::heldLock;
    Context::heldLock = &lock;
  }
  ~Locked() { Context::heldLock = outer; }
  Context &context;
  std::unique_lock<std::mutex> lock;
  std::unique_lock<std::mutex> *outer;
};
} // namespace

extern "C" {

void *mgpuModuleLoad(const void *data, size_t gpuBlobSize) {
  Locked l;
  return l.context.loadModule(data, gpuBlobSize);
}

void *mgpuModuleLoadJIT(void *, int) {
  fatal("mgpuModuleLoadJIT: Vulkan modules are binaries; load them with "
        "mgpuModuleLoad");
}

void mgpuModuleUnload(void *module) {
  Locked l;
  l.context.unloadModule(static_cast<Module *>(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Locked l;
  return l.context.getKernel(static_cast<Module *>(module), name);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **, size_t paramsCount) {
  Locked l;
  if (smem != 0)
    fatal("kernel '" + static_cast<Kernel *>(function)->name +
          "' launched with " + std::to_string(smem) +
          " bytes of dynamic shared memory; Vulkan kernels declare their "
          "workgroup memory statically");
  intptr_t grid[3] = {gridX, gridY, gridZ};
  intptr_t block[3] = {blockX, blockY, blockZ};
  l.context.launch(static_cast<Kernel *>(function), grid, block,
                   static_cast<Stream *>(stream), params, paramsCount);
}

void *mgpuStreamCreate() {
  Locked l;
  l.context.initDevice();
  return l.context.createStream();
}

void mgpuStreamDestroy(void *stream) {
  Locked l;
  l.context.destroyStream(static_cast<Stream *>(stream));
}

void mgpuStreamSynchronize(void *stream) {
  Locked l;
  l.context.synchronize(static_cast<Stream *>(stream));
}

void mgpuStreamWaitEvent(void *, void *) {
  // One queue, every submission ordered after the previous ones: nothing to
  // wait for.
}

void *mgpuEventCreate() { return new Event(); }

void mgpuEventDestroy(void *event) { delete static_cast<Event *>(event); }

void mgpuEventSynchronize(void *event) {
  Locked l;
  l.context.synchronize(static_cast<Event *>(event));
}

void mgpuEventRecord(void *event, void *stream) {
  Locked l;
  l.context.record(static_cast<Event *>(event), static_cast<Stream *>(stream));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *, bool isHostShared) {
  Locked l;
  return l.context.allocate(sizeBytes, isHostShared);
}

void mgpuMemFree(void *ptr, void *) {
  Locked l;
  l.context.free(ptr);
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *) {
  Locked l;
  l.context.copy(dst, src, sizeBytes);
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *) {
  Locked l;
  l.context.fill(dst, value, 4, count);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *) {
  Locked l;
  l.context.fill(dst, value, 2, count);
}

void mgpuSetDefaultDevice(int32_t device) {
  Locked l;
  l.context.setDefaultDevice(device);
}

void kilnVulkanSetTimingCallback(KilnTimingCallback callback, void *user) {
  Locked l;
  l.context.setTimingCallback(callback, user);
}

double kilnVulkanDeviceCopy(void *dst, const void *src, size_t sizeBytes) {
  Locked l;
  return l.context.deviceCopy(dst, src, sizeBytes);
}

void kilnVulkanGetStats(KilnVulkanStats *stats) {
  Locked l;
  *stats = l.context.stats;
}

} // extern "C"

// Upstream's fill helpers, for programs written for mlir-runner's Vulkan
// path, under both the plain and the _mlir_ciface_ names.
KILN_DEFINE_FILL_RESOURCE_HELPERS(KILN_RT_EXPORT)
