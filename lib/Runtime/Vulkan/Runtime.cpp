//===- Runtime.cpp - Kiln's Vulkan runtime behind its C++ interface -------===//
//
// One implementation behind two doors: kilnVulkanRuntime(), the C++
// interface that returns every error (kiln/Runtime/Runtime.h), and the C
// entry points, thin wrappers over it that report an error on stderr and
// exit, because upstream's ABI has no error returns: the mgpu* ones are
// Common/MGPU.cpp's, the kiln* ones here.
//
// Both doors lead to the process's rt::DeviceList, which holds one
// VulkanRuntime (a single device, its own Context) per entry of the
// program's device list (KILN_VULKAN_DEVICE, --device).
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "Context.h"
#include "DeviceRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

using namespace kiln;
using namespace kiln::vkrt;

namespace {
/// Locks one device's Context for one call; waits for the device inside it
/// release that lock (Queue::heldLockOn) so that other threads go on.
struct Locked {
  explicit Locked(Context &context)
      : context(context), lock(context.mutex), held{&lock, Queue::heldLocks} {
    Queue::heldLocks = &held;
  }
  ~Locked() { Queue::heldLocks = held.outer; }
  Context &context;
  std::unique_lock<std::mutex> lock;
  Queue::HeldLock held;
};

/// The Vulkan runtime of one device: one Context, its own instance and
/// device.
class VulkanRuntime final : public rt::Runtime {
public:
  explicit VulkanRuntime(const rt::DevicePlace &place)
      : owned(std::make_unique<Context>(place)) {}
  ~VulkanRuntime() override {
    // After a timeout the device still runs the work: its Context stays
    // (the exit handler leaves it alone too).
    std::unique_lock<std::mutex> lock(owned->mutex);
    bool stuck = owned->stuck;
    lock.unlock();
    if (stuck)
      (void)owned.release();
  }

  /// The device's Context (locked with Locked).
  Context &context() { return *owned; }

  const char *backend() const override { return "vulkan"; }

  Status configure(const rt::Options &options) override {
    Locked l(*owned);
    if (l.context.instance)
      return KILN_ERROR(InvalidArgument,
                        "the Vulkan runtime's options are set before it "
                        "starts; its instance exists already");
    l.context.options.merge(options);
    return Status::success();
  }

  Status initialize() override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.initDevice();
  }

  Expected<std::string> describeDevices() override {
    Locked l(*owned);
    return l.context.describeDevices();
  }

  Expected<std::string> deviceTarget() override {
    Locked l(*owned);
    return l.context.deviceTargetEnv();
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_ASSIGN_OR_RETURN(Module * module, l.context.loadModule(data, size));
    return static_cast<void *>(module);
  }

  Status unloadModule(void *module) override {
    Locked l(*owned);
    return l.context.unloadModule(static_cast<Module *>(module));
  }

  Expected<void *> getFunction(void *module, const char *name) override {
    Locked l(*owned);
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
    Locked l(*owned);
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
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.initDevice());
    return static_cast<void *>(l.context.createStream());
  }

  Status destroyStream(void *stream) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.destroyStream(static_cast<Stream *>(stream));
  }

  Status synchronize(void *stream) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.checkStream(static_cast<Stream *>(stream),
                                   "mgpuStreamSynchronize"));
    return l.context.synchronize(static_cast<Stream *>(stream));
  }

  Expected<void *> allocate(uint64_t bytes, bool hostShared) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.allocate(bytes, hostShared);
  }

  Status free(void *pointer) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.free(pointer);
  }

  Status copy(void *dst, const void *src, size_t bytes, void *) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.copy(dst, src, bytes);
  }

  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_TRY(
        l.context.checkStream(static_cast<Stream *>(stream), "mgpuMemset"));
    return l.context.fill(dst, value, patternBytes, count);
  }

  // All work goes to one queue in submission order: recording an event and
  // waiting for one on a stream order nothing, and synchronizing an event
  // waits for everything submitted.
  Expected<void *> createEvent() override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return static_cast<void *>(l.context.queue.createEvent());
  }

  Status destroyEvent(void *event) override {
    Locked l(*owned);
    return l.context.queue.destroyEvent(static_cast<Event *>(event));
  }

  Status recordEvent(void *event, void *stream) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.queue.checkEvent(static_cast<Event *>(event),
                                        "mgpuEventRecord"));
    return l.context.checkStream(static_cast<Stream *>(stream),
                                 "mgpuEventRecord");
  }

  Status synchronizeEvent(void *event) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.queue.checkEvent(static_cast<Event *>(event),
                                        "mgpuEventSynchronize"));
    return l.context.drainAll();
  }

  Status streamWaitEvent(void *stream, void *event) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    KILN_TRY(l.context.queue.checkEvent(static_cast<Event *>(event),
                                        "mgpuStreamWaitEvent"));
    return l.context.checkStream(static_cast<Stream *>(stream),
                                 "mgpuStreamWaitEvent");
  }

  // One device: the list (DeviceList) picks among its devices, so only
  // device 0 is this runtime's.
  Status setDefaultDevice(int32_t device) override {
    if (device == 0)
      return Status::success();
    return KILN_ERROR(InvalidArgument,
                      "mgpuSetDefaultDevice(" + std::to_string(device) +
                          ") on the Vulkan runtime of one device; its only "
                          "device is 0");
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.setTimingCallback(callback, user);
  }

  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    Locked l(*owned);
    KILN_TRY(l.context.usable());
    return l.context.deviceCopy(dst, src, bytes);
  }

private:
  std::unique_ptr<Context> owned;
};

/// The process's devices: never destroyed, as JIT module destructors call
/// in late (each device's Context is torn down by the exit handler).
rt::DeviceList &devices() {
  static rt::DeviceList *list =
      new rt::DeviceList("vulkan", "KILN_VULKAN_DEVICE", makeDeviceRuntime);
  return *list;
}

/// The calling thread's current device.
Expected<VulkanRuntime *> currentDevice() {
  KILN_ASSIGN_OR_RETURN(rt::Runtime * device, devices().current());
  // The list holds only what makeDeviceRuntime makes.
  return static_cast<VulkanRuntime *>(device);
}

/// What the kiln* entry points do with an error: report it and exit.
constexpr rt::ExitOnError orExit{"kiln-vulkan"};
} // namespace

std::unique_ptr<rt::Runtime>
kiln::vkrt::makeDeviceRuntime(const rt::DevicePlace &place) {
  return std::make_unique<VulkanRuntime>(place);
}

rt::Runtime &rt::boundaryRuntime() { return devices(); }
const char *const rt::kBoundaryName = "kiln-vulkan";

extern "C" {

rt::Runtime *kilnVulkanRuntime() { return &devices(); }

int kilnVulkanListDevices() {
  Expected<std::string> text = devices().describeDevices();
  if (!text) {
    rt::printError("kiln-vulkan", text.error());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  return 0;
}

const char *kilnVulkanDeviceTargetEnv() {
  // The text stays valid for the process: one per device of the list.
  static std::mutex mutex;
  static auto *cached = new std::map<int, std::string>();
  int index = devices().currentIndex();
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cached->find(index);
    if (it != cached->end())
      return it->second.c_str();
  }
  Expected<VulkanRuntime *> device = currentDevice();
  Expected<std::string> text = device ? (*device)->deviceTarget()
                                      : Expected<std::string>(device.error());
  if (!text) {
    rt::printError("kiln-vulkan", text.error());
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  return cached->emplace(index, *text).first->second.c_str();
}

int kilnVulkanGetDeviceInfo(KilnVulkanDeviceInfo *info) {
  Expected<VulkanRuntime *> device = currentDevice();
  Status error = device ? Status::success() : device.error();
  if (device) {
    Locked l((*device)->context());
    error = l.context.deviceInfo(*info);
  }
  if (error) {
    rt::printError("kiln-vulkan", error);
    return 1;
  }
  return 0;
}

void kilnVulkanSetTimingCallback(KilnTimingCallback callback, void *user) {
  orExit(devices().setTimingCallback(callback, user));
}

double kilnVulkanDeviceCopy(void *dst, const void *src, size_t sizeBytes) {
  return orExit(devices().deviceCopy(dst, src, sizeBytes));
}

void kilnVulkanGetStats(KilnVulkanStats *stats) {
  VulkanRuntime *device = orExit(currentDevice());
  Locked l(device->context());
  *stats = l.context.stats;
}

} // extern "C"
