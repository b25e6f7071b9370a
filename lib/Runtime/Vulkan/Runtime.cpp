//===- Runtime.cpp - The mgpu* ABI and Kiln's entry points on Vulkan -------===//
//
// One implementation behind two doors: kilnVulkanRuntime(), the C++
// interface that returns every error (kiln/Runtime/Runtime.h), and the
// mgpu* / kiln* C entry points, thin wrappers over it that report an error
// on stderr and exit, because upstream's ABI has no error returns.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "../FillResource.h"
#include "Context.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>

using namespace kiln;
using namespace kiln::vkrt;

namespace {
/// Locks the context for one call; waits for the device inside it release
/// the lock (Queue::heldLock) so that other threads go on.
struct Locked {
  Locked() : context(Context::get()), lock(context.mutex) {
    outer = Queue::heldLock;
    Queue::heldLock = &lock;
  }
  ~Locked() { Queue::heldLock = outer; }
  Context &context;
  std::unique_lock<std::mutex> lock;
  std::unique_lock<std::mutex> *outer;
};

class VulkanRuntime final : public rt::Runtime {
public:
  const char *backend() const override { return "vulkan"; }

  Status initialize() override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.initDevice();
  }

  Expected<std::string> describeDevices() override {
    Locked l;
    return l.context.describeDevices();
  }

  Expected<std::string> deviceTarget() override {
    Locked l;
    return l.context.deviceTargetEnv();
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_ASSIGN_OR_RETURN(Module * module, l.context.loadModule(data, size));
    return static_cast<void *>(module);
  }

  Status unloadModule(void *module) override {
    Locked l;
    return l.context.unloadModule(static_cast<Module *>(module));
  }

  Expected<void *> getFunction(void *module, const char *name) override {
    Locked l;
    KILN_TRY(l.context.usable());
    if (module)
      KILN_TRY(l.context.checkModule(static_cast<Module *>(module),
                                     "mgpuModuleGetFunction"));
    KILN_ASSIGN_OR_RETURN(
        Kernel * kernel,
        l.context.getKernel(static_cast<Module *>(module), name));
    return static_cast<void *>(kernel);
  }

  Status launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                int32_t sharedMemoryBytes, void *stream, void **params,
                size_t paramsCount) override {
    Locked l;
    KILN_TRY(l.context.usable());
    auto *kernel = static_cast<Kernel *>(function);
    if (!kernel)
      return KILN_ERROR(InvalidArgument,
                        "mgpuLaunchKernel with a null function");
    KILN_TRY(l.context.checkKernel(kernel, "mgpuLaunchKernel"));
    KILN_TRY(l.context.checkStream(static_cast<Stream *>(stream),
                                   "mgpuLaunchKernel"));
    if (paramsCount && !params)
      return KILN_ERROR(InvalidArgument, "mgpuLaunchKernel of kernel '" +
                                             kernel->name +
                                             "' with a null parameter array");
    for (size_t i = 0; i < paramsCount; ++i)
      if (!params[i])
        return KILN_ERROR(InvalidArgument,
                          "mgpuLaunchKernel of kernel '" + kernel->name +
                              "' with parameter " + std::to_string(i) +
                              " a null pointer");
    intptr_t grids[3] = {grid.x, grid.y, grid.z};
    intptr_t blocks[3] = {block.x, block.y, block.z};
    return l.context.launch(kernel, grids, blocks, sharedMemoryBytes,
                            static_cast<Stream *>(stream), params, paramsCount);
  }

  Expected<void *> createStream() override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.initDevice());
    return static_cast<void *>(l.context.createStream());
  }

  Status destroyStream(void *stream) override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.destroyStream(static_cast<Stream *>(stream));
  }

  Status synchronize(void *stream) override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.checkStream(static_cast<Stream *>(stream),
                                   "mgpuStreamSynchronize"));
    return l.context.synchronize(static_cast<Stream *>(stream));
  }

  Expected<void *> allocate(uint64_t bytes, bool hostShared) override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.allocate(bytes, hostShared);
  }

  Status free(void *pointer) override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.free(pointer);
  }

  Status copy(void *dst, const void *src, size_t bytes, void *) override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.copy(dst, src, bytes);
  }

  Status fill32(void *dst, uint32_t value, size_t count,
                void *stream) override {
    return fill(dst, value, 4, count, stream);
  }

  /// `count` words of `patternBytes` (2 or 4) bytes of `value` at `dst`.
  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *) {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.fill(dst, value, patternBytes, count);
  }

  Status synchronizeEvent(void *event) {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.synchronize(static_cast<Event *>(event));
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.setTimingCallback(callback, user);
  }

  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    Locked l;
    KILN_TRY(l.context.usable());
    return l.context.deviceCopy(dst, src, bytes);
  }
};

VulkanRuntime &runtime() {
  // Never destroyed, as the Context (JIT module destructors call in late).
  static VulkanRuntime *instance = new VulkanRuntime();
  return *instance;
}

/// What the mgpu* entry points do with an error: report it and exit.
constexpr rt::ExitOnError orExit{"kiln-vulkan"};
} // namespace

extern "C" {

rt::Runtime *kilnVulkanRuntime() { return &runtime(); }

void *mgpuModuleLoad(const void *data, size_t gpuBlobSize) {
  return orExit(runtime().loadModule(data, gpuBlobSize));
}

void *mgpuModuleLoadJIT(void *, int) {
  rt::exitWith("kiln-vulkan",
               KILN_ERROR(InvalidArgument,
                          "mgpuModuleLoadJIT: Vulkan modules are binaries; "
                          "load them with mgpuModuleLoad"));
}

void mgpuModuleUnload(void *module) { orExit(runtime().unloadModule(module)); }

void *mgpuModuleGetFunction(void *module, const char *name) {
  return orExit(runtime().getFunction(module, name));
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **, size_t paramsCount) {
  orExit(runtime().launch(function, {gridX, gridY, gridZ},
                          {blockX, blockY, blockZ}, smem, stream, params,
                          paramsCount));
}

void *mgpuStreamCreate() { return orExit(runtime().createStream()); }

void mgpuStreamDestroy(void *stream) {
  orExit(runtime().destroyStream(stream));
}

void mgpuStreamSynchronize(void *stream) {
  orExit(runtime().synchronize(stream));
}

void mgpuStreamWaitEvent(void *, void *) {
  // One queue, every submission ordered after the previous ones: nothing to
  // wait for.
}

void *mgpuEventCreate() { return new Event(); }

void mgpuEventDestroy(void *event) { delete static_cast<Event *>(event); }

void mgpuEventSynchronize(void *event) {
  orExit(runtime().synchronizeEvent(event));
}

void mgpuEventRecord(void *event, void *stream) {
  Locked l;
  l.context.record(static_cast<Event *>(event), static_cast<Stream *>(stream));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *, bool isHostShared) {
  return orExit(runtime().allocate(sizeBytes, isHostShared));
}

void mgpuMemFree(void *ptr, void *) { orExit(runtime().free(ptr)); }

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  orExit(runtime().copy(dst, src, sizeBytes, stream));
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  orExit(runtime().fill32(dst, value, count, stream));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream) {
  orExit(runtime().fill(dst, value, 2, count, stream));
}

void mgpuSetDefaultDevice(int32_t device) {
  Locked l;
  l.context.setDefaultDevice(device);
}

int kilnVulkanListDevices() {
  Expected<std::string> text = runtime().describeDevices();
  if (!text) {
    rt::printError("kiln-vulkan", text.error());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  return 0;
}

const char *kilnVulkanDeviceTargetEnv() {
  static std::mutex mutex;
  static std::string cached;
  std::lock_guard<std::mutex> lock(mutex);
  if (!cached.empty())
    return cached.c_str();
  Expected<std::string> text = runtime().deviceTarget();
  if (!text) {
    rt::printError("kiln-vulkan", text.error());
    return nullptr;
  }
  cached = *text;
  return cached.c_str();
}

int kilnVulkanGetDeviceInfo(KilnVulkanDeviceInfo *info) {
  Locked l;
  if (Status error = l.context.deviceInfo(*info)) {
    rt::printError("kiln-vulkan", error);
    return 1;
  }
  return 0;
}

void kilnVulkanSetTimingCallback(KilnTimingCallback callback, void *user) {
  orExit(runtime().setTimingCallback(callback, user));
}

double kilnVulkanDeviceCopy(void *dst, const void *src, size_t sizeBytes) {
  return orExit(runtime().deviceCopy(dst, src, sizeBytes));
}

void kilnVulkanGetStats(KilnVulkanStats *stats) {
  Locked l;
  *stats = l.context.stats;
}

} // extern "C"

// Upstream's fill helpers, for programs written for mlir-runner's Vulkan
// path, under both the plain and the _mlir_ciface_ names.
KILN_DEFINE_FILL_RESOURCE_HELPERS(KILN_RT_EXPORT)
