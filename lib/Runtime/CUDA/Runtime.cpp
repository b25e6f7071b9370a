//===- Runtime.cpp - Kiln's CUDA runtime behind its C++ interface ---------===//
//
// The units (Device.h, Memory.h, Executable.h, Queue.h, Launcher.h)
// composed behind two doors. The C++ interface that returns every error
// (kiln/Runtime/Runtime.h) is kilnCudaRuntime(): an rt::DeviceList over one
// DeviceRuntime per entry of the program's device list (DeviceRuntime.h),
// each with its own units and lock, whose calls take that lock (and make the
// device's context current where the driver call needs it). The C entry
// points are thin wrappers over it that report an error on stderr and exit
// or return non-zero: the mgpu* ones are Common/MGPU.cpp's, the kiln* ones
// here, on the calling thread's current device.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"

#include "Device.h"
#include "DeviceRuntime.h"
#include "Executable.h"
#include "Launcher.h"
#include "Memory.h"
#include "Queue.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

using namespace kiln::cudart;
using kiln::rt::Dim3;

namespace {

/// One device's state: the units, in their one-way order, and the lock
/// every call on the device holds.
struct State {
  explicit State(kiln::rt::DevicePlace place) : device(std::move(place)) {}

  std::mutex mutex;
  Device device;
  Memory memory{device};
  Executables executables{device};
  Queue queue{device, &mutex};
  Launcher launcher{device, memory, executables, queue};
};

/// Locks one device's state for one call; enter() then makes the device's
/// primary context current until the call returns. Waits for the device
/// release the lock meanwhile (Queue::heldLock).
class Scoped {
public:
  explicit Scoped(State &state) : state(state), lock(state.mutex) {
    outer = Queue::heldLock;
    Queue::heldLock = &lock;
  }
  ~Scoped() {
    if (context) {
      CUcontext popped;
      state.device.driver().cuCtxPopCurrent(&popped);
    }
    Queue::heldLock = outer;
  }
  Scoped(const Scoped &) = delete;
  Scoped &operator=(const Scoped &) = delete;

  /// Opens the driver, picks the device and pushes its context.
  Status enter() {
    KILN_TRY(state.device.load());
    KILN_ASSIGN_OR_RETURN(CUcontext ctx, state.device.context());
    KILN_TRY(state.device.check(state.device.driver().cuCtxPushCurrent(ctx),
                                "cuCtxPushCurrent"));
    context = ctx;
    return Status::success();
  }

  State &state;
  /// The context made current; null before enter() succeeded.
  CUcontext context = nullptr;

private:
  std::unique_lock<std::mutex> lock;
  std::unique_lock<std::mutex> *outer;
};

//===-- The C++ interface -------------------------------------------------===//

/// The runtime of one device: every call locks the device's state and
/// returns its errors. The calls beyond kiln::rt::Runtime serve the kiln*
/// entry points that have no counterpart there.
class DeviceRuntime final : public kiln::rt::Runtime {
public:
  explicit DeviceRuntime(kiln::rt::DevicePlace place)
      : state(std::move(place)) {}

  /// Releases what the device still holds (streams, modules, allocations)
  /// and then its context, which another device of the list on the same
  /// GPU may still use.
  ~DeviceRuntime() override {
    if (!state.device.isLoaded() || !state.device.hasContext())
      return;
    Scoped s(state);
    if (s.enter())
      return;
    s.state.queue.releaseAll();
    s.state.executables.releaseAll();
    s.state.memory.releaseAll();
  }

  const char *backend() const override { return "cuda"; }

  Status configure(const kiln::rt::Options &options) override {
    Scoped s(state);
    return s.state.device.configure(options);
  }

  Status initialize() override {
    Scoped s(state);
    return s.enter();
  }

  Expected<std::string> describeDevices() override {
    int count = 0;
    return listDevices(count);
  }

  /// describeDevices(), and the number of devices.
  Expected<std::string> listDevices(int &count) {
    Scoped s(state);
    return s.state.device.listDevices(count);
  }

  Expected<std::string> deviceTarget() override {
    Scoped s(state);
    return s.state.device.deviceChip();
  }

  Status deviceInfo(KilnCudaDeviceInfo &info) {
    Scoped s(state);
    return s.state.device.deviceInfo(info);
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    return loadModuleAt(data, size, /*optLevel=*/-1);
  }

  /// A module whose PTX the driver compiles at `optLevel` (0 to 4; -1: the
  /// driver's default).
  Expected<void *> loadModuleAt(const void *data, size_t size, int optLevel) {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.executables.loadModule(data, size, optLevel);
  }

  Expected<void *> loadModuleJIT(void *data, int optLevel) override {
    return loadModuleAt(data, 0, optLevel);
  }

  Status unloadModule(void *module) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.executables.unloadModule(static_cast<CUmodule>(module));
  }

  Expected<void *> getFunction(void *module, const char *name) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.executables.getFunction(static_cast<CUmodule>(module), name);
  }

  Status launch(void *function, Dim3 grid, Dim3 block,
                int32_t sharedMemoryBytes, void *stream, void **params,
                size_t paramsCount) override {
    intptr_t gridSize[3] = {grid.x, grid.y, grid.z};
    intptr_t blockSize[3] = {block.x, block.y, block.z};
    return launchKernel(function, gridSize, blockSize, nullptr,
                        sharedMemoryBytes, stream, params, paramsCount,
                        nullptr);
  }

  Status launchFull(void *function, Dim3 grid, Dim3 block, const Dim3 *cluster,
                    int32_t sharedMemoryBytes, void *stream, void **params,
                    size_t paramsCount, void **extra) override {
    intptr_t gridSize[3] = {grid.x, grid.y, grid.z};
    intptr_t blockSize[3] = {block.x, block.y, block.z};
    intptr_t clusterSize[3] = {1, 1, 1};
    if (cluster) {
      clusterSize[0] = cluster->x;
      clusterSize[1] = cluster->y;
      clusterSize[2] = cluster->z;
    }
    return launchKernel(function, gridSize, blockSize,
                        cluster ? clusterSize : nullptr, sharedMemoryBytes,
                        stream, params, paramsCount, extra);
  }

  /// mgpuLaunchKernel, or mgpuLaunchClusterKernel when `cluster` is set.
  Status launchKernel(void *function, const intptr_t grid[3],
                      const intptr_t block[3], const intptr_t *cluster,
                      int32_t smem, void *stream, void **params,
                      size_t paramsCount, void **extra) {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.launcher.launch(
        static_cast<CUfunction>(function), grid, block, cluster, smem,
        static_cast<CUstream>(stream), params, paramsCount, extra);
  }

  Expected<void *> createStream() override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.createStream(s.context);
  }

  Status destroyStream(void *stream) override {
    if (!stream)
      return Status::success(); // The default stream.
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.destroyStream(s.context,
                                       static_cast<CUstream>(stream));
  }

  Status synchronize(void *stream) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.synchronize(static_cast<CUstream>(stream));
  }

  Status streamWaitEvent(void *stream, void *event) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.streamWaitEvent(static_cast<CUstream>(stream),
                                         static_cast<CUevent>(event));
  }

  Expected<void *> createEvent() override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.createEvent();
  }

  Status destroyEvent(void *event) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.destroyEvent(static_cast<CUevent>(event));
  }

  Status synchronizeEvent(void *event) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.synchronizeEvent(static_cast<CUevent>(event));
  }

  Status recordEvent(void *event, void *stream) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.recordEvent(static_cast<CUevent>(event),
                                     static_cast<CUstream>(stream));
  }

  Expected<void *> allocate(uint64_t bytes, bool hostShared) override {
    if (bytes == 0)
      return nullptr;
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.allocate(bytes, hostShared);
  }

  Status free(void *pointer) override {
    if (!pointer)
      return Status::success();
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.free(pointer);
  }

  Status copy(void *dst, const void *src, size_t bytes, void *stream) override {
    if (bytes == 0)
      return Status::success();
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.copy(dst, src, bytes, static_cast<CUstream>(stream));
  }

  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    if (count == 0)
      return Status::success();
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.fill(dst, value, patternBytes, count,
                               static_cast<CUstream>(stream));
  }

  Status hostRegister(void *ptr, uint64_t bytes) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.hostRegister(ptr, bytes);
  }

  Status hostUnregister(void *ptr) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.hostUnregister(ptr);
  }

  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.hostRegisterMemRef(rank, descriptor,
                                             elementSizeBytes);
  }

  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.memory.hostUnregisterMemRef(rank, descriptor,
                                               elementSizeBytes);
  }

  /// One device is device 0 of its own; the list (kilnCudaRuntime())
  /// switches between the devices of the program.
  Status setDefaultDevice(int32_t device) override {
    if (device == 0)
      return Status::success();
    return KILN_ERROR(InvalidArgument,
                      "mgpuSetDefaultDevice(" + std::to_string(device) +
                          ") on the runtime of one CUDA device, which is "
                          "device 0 of its own; the process's runtime "
                          "(kilnCudaRuntime()) switches between the devices "
                          "of the program's list");
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    Scoped s(state);
    s.state.launcher.setTimingCallback(callback, user);
    return Status::success();
  }

  /// kilnCudaTimed.
  Expected<double> timed(void (*work)(void *user, void *stream), void *user) {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.timed([&](CUstream stream) {
      work(user, stream);
      return Status::success();
    });
  }

  /// A copy from another CUDA device's memory: cuMemcpyPeerAsync between
  /// the two contexts (the driver finds the fastest way, directly where
  /// the GPUs reach each other), after the work on the source's default
  /// stream and before this call returns. False for another backend's
  /// runtime.
  kiln::rt::Expected<bool> copyFromPeer(void *dst, kiln::rt::Runtime &source,
                                        const void *src,
                                        size_t bytes) override {
    auto *peer = dynamic_cast<DeviceRuntime *>(&source);
    if (!peer)
      return false;
    if (bytes == 0)
      return true;
    // The source's lock and this device's are taken one after the other,
    // never together, so two copies in opposite directions cannot wait for
    // each other.
    CUcontext from;
    {
      Scoped s(peer->state);
      KILN_TRY(s.enter());
      KILN_TRY(s.state.memory.checkPeerSource(src, bytes));
      KILN_TRY(s.state.queue.synchronize(nullptr));
      from = s.context;
    }
    Scoped s(state);
    KILN_TRY(s.enter());
    KILN_TRY(
        s.state.memory.copyFromPeer(dst, s.context, src, from, bytes, nullptr));
    KILN_TRY(s.state.queue.synchronize(nullptr));
    return true;
  }

  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    Scoped s(state);
    KILN_TRY(s.enter());
    return s.state.queue.timed([&](CUstream stream) {
      return s.state.memory.copyDeviceToDevice(dst, src, bytes, stream);
    });
  }

  /// This device's counters, and the process's host registrations (which
  /// every device shares).
  KilnCudaStats stats() {
    Scoped s(state);
    KilnCudaStats stats = {};
    stats.moduleLoads = s.state.executables.moduleLoads();
    stats.launches = s.state.launcher.launches();
    stats.allocations = s.state.memory.allocations();
    const HostRegistry &registry = HostRegistry::get();
    stats.hostRegisterCalls = registry.registerCalls();
    stats.hostUnregisterCalls = registry.unregisterCalls();
    stats.registeredRanges = registry.registeredRanges();
    return stats;
  }

private:
  State state;
};

//===-- Errors at the C boundary ------------------------------------------===//

/// How the entry points report an error: "kiln-cuda: MESSAGE" on stderr.
void printError(const Status &error) {
  kiln::rt::printError("kiln-cuda", error);
}

/// For the entry points without an error return: the value, or a message
/// and exit (at once after a Timeout).
constexpr kiln::rt::ExitOnError orExit{"kiln-cuda"};

/// The process's devices: one DeviceRuntime per entry of --device or
/// KILN_CUDA_DEVICE, made on first use.
kiln::rt::DeviceList &devices() {
  static kiln::rt::DeviceList *list =
      new kiln::rt::DeviceList("cuda", "KILN_CUDA_DEVICE", makeDeviceRuntime);
  return *list;
}

/// The calling thread's current device.
Expected<DeviceRuntime *> current() {
  KILN_ASSIGN_OR_RETURN(kiln::rt::Runtime * device, devices().current());
  // The list holds only what makeDeviceRuntime made.
  return static_cast<DeviceRuntime *>(device);
}

} // namespace

std::unique_ptr<kiln::rt::Runtime>
kiln::cudart::makeDeviceRuntime(rt::DevicePlace place) {
  return std::make_unique<DeviceRuntime>(std::move(place));
}

kiln::rt::Runtime &kiln::rt::boundaryRuntime() { return devices(); }
const char *const kiln::rt::kBoundaryName = "kiln-cuda";

extern "C" {

kiln::rt::Runtime *kilnCudaRuntime() { return &devices(); }

int kilnCudaListDevices() {
  int count = 0;
  Expected<DeviceRuntime *> device = current();
  Expected<std::string> text =
      device ? (*device)->listDevices(count) : device.error();
  if (!text) {
    printError(text.error());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  if (count == 0) {
    printError(KILN_ERROR(Driver, "no CUDA device"));
    return 1;
  }
  return 0;
}

const char *kilnCudaDeviceChip() {
  Expected<std::string> chip = devices().deviceTarget();
  if (!chip) {
    printError(chip.error());
    return nullptr;
  }
  // Every answer lives until the process ends.
  static std::mutex mutex;
  static std::set<std::string> *chips = new std::set<std::string>();
  std::lock_guard<std::mutex> lock(mutex);
  return chips->insert(*chip).first->c_str();
}

int kilnCudaGetDeviceInfo(KilnCudaDeviceInfo *info) {
  Expected<DeviceRuntime *> device = current();
  Status error = device ? (*device)->deviceInfo(*info) : device.error();
  if (error) {
    printError(error);
    return 1;
  }
  return 0;
}

void kilnCudaSetTimingCallback(KilnTimingCallback callback, void *user) {
  orExit(devices().setTimingCallback(callback, user));
}

double kilnCudaTimed(void (*work)(void *user, void *stream), void *user) {
  return orExit(orExit(current())->timed(work, user));
}

double kilnCudaDeviceCopy(void *dst, const void *src, size_t sizeBytes) {
  return orExit(devices().deviceCopy(dst, src, sizeBytes));
}

void kilnCudaGetStats(KilnCudaStats *stats) {
  *stats = orExit(current())->stats();
}

} // extern "C"
