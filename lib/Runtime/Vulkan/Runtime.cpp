//===- Runtime.cpp - Kiln's Vulkan runtime behind its C++ interface -------===//
//
// One implementation behind two doors: kilnVulkanRuntime(), the C++
// interface that returns every error (kiln/Runtime/Runtime.h), and the C
// entry points, thin wrappers over it that report an error on stderr and
// exit, because upstream's ABI has no error returns: the mgpu* ones are
// Common/MGPU.cpp's, the kiln* ones here.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
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

  Status configure(const rt::Options &options) override {
    Locked l;
    if (l.context.instance)
      return KILN_ERROR(InvalidArgument,
                        "the Vulkan runtime's options are set before it "
                        "starts; its instance exists already");
    l.context.options.merge(options);
    return Status::success();
  }

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

  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_TRY(
        l.context.checkStream(static_cast<Stream *>(stream), "mgpuMemset"));
    return l.context.fill(dst, value, patternBytes, count);
  }

  // All work goes to one queue in submission order: recording an event and
  // waiting for one on a stream order nothing, and synchronizing an event
  // waits for everything submitted.
  Expected<void *> createEvent() override {
    Locked l;
    KILN_TRY(l.context.usable());
    return static_cast<void *>(l.context.queue.createEvent());
  }

  Status destroyEvent(void *event) override {
    Locked l;
    return l.context.queue.destroyEvent(static_cast<Event *>(event));
  }

  Status recordEvent(void *event, void *stream) override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.queue.checkEvent(static_cast<Event *>(event),
                                        "mgpuEventRecord"));
    return l.context.checkStream(static_cast<Stream *>(stream),
                                 "mgpuEventRecord");
  }

  Status synchronizeEvent(void *event) override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.queue.checkEvent(static_cast<Event *>(event),
                                        "mgpuEventSynchronize"));
    return l.context.drainAll();
  }

  Status streamWaitEvent(void *stream, void *event) override {
    Locked l;
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.queue.checkEvent(static_cast<Event *>(event),
                                        "mgpuStreamWaitEvent"));
    return l.context.checkStream(static_cast<Stream *>(stream),
                                 "mgpuStreamWaitEvent");
  }

  Status setDefaultDevice(int32_t device) override {
    Locked l;
    l.context.setDefaultDevice(device);
    return Status::success();
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

/// What the kiln* entry points do with an error: report it and exit.
constexpr rt::ExitOnError orExit{"kiln-vulkan"};
} // namespace

rt::Runtime &rt::boundaryRuntime() { return runtime(); }
const char *const rt::kBoundaryName = "kiln-vulkan";

extern "C" {

rt::Runtime *kilnVulkanRuntime() { return &runtime(); }

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
