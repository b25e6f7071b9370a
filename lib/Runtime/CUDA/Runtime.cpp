//===- Runtime.cpp - Kiln's CUDA runtime behind its C++ interface ---------===//
//
// The units (Device.h, Memory.h, Executable.h, Queue.h, Launcher.h)
// composed behind two doors: kilnCudaRuntime(), the C++ interface that
// returns every error (kiln/Runtime/Runtime.h), whose calls each take the
// runtime's lock (and make the device's context current where the driver
// call needs it); and the C entry points, thin wrappers over it that report
// an error on stderr and exit or return non-zero: the mgpu* ones are
// Common/MGPU.cpp's, the kiln* ones here.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"

#include "Device.h"
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

/// The process-wide state: the units, in their one-way order, and the lock
/// every call holds.
struct State {
  static State &get() {
    static State *state = new State();
    return *state;
  }

  std::mutex mutex;
  Device device;
  Memory memory{device};
  Executables executables{device};
  Queue queue{device};
  Launcher launcher{device, executables, queue};

private:
  State() = default;
};

/// Locks the runtime for one call; enter() then makes the current device's
/// primary context current until the call returns. Waits for the device
/// release the lock meanwhile (Queue::heldLock).
class Scoped {
public:
  Scoped() : state(State::get()), lock(state.mutex) {
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

/// kilnCudaRuntime(): every call locks the runtime as the entry points do
/// and returns its errors. The calls beyond kiln::rt::Runtime serve the
/// kiln* entry points that have no counterpart there.
class CUDARuntime final : public kiln::rt::Runtime {
public:
  static CUDARuntime &get() {
    static CUDARuntime *runtime = new CUDARuntime();
    return *runtime;
  }

  const char *backend() const override { return "cuda"; }

  Status configure(const kiln::rt::Options &options) override {
    Scoped s;
    return s.state.device.configure(options);
  }

  Status initialize() override {
    Scoped s;
    return s.enter();
  }

  Expected<std::string> describeDevices() override {
    int count = 0;
    return listDevices(count);
  }

  /// describeDevices(), and the number of devices.
  Expected<std::string> listDevices(int &count) {
    State &state = State::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    return state.device.listDevices(count);
  }

  Expected<std::string> deviceTarget() override {
    State &state = State::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    return state.device.deviceChip();
  }

  Status deviceInfo(KilnCudaDeviceInfo &info) {
    State &state = State::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    return state.device.deviceInfo(info);
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    return loadModuleAt(data, size, /*optLevel=*/-1);
  }

  /// A module whose PTX the driver compiles at `optLevel` (0 to 4; -1: the
  /// driver's default).
  Expected<void *> loadModuleAt(const void *data, size_t size, int optLevel) {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.executables.loadModule(data, size, optLevel);
  }

  Expected<void *> loadModuleJIT(void *data, int optLevel) override {
    return loadModuleAt(data, 0, optLevel);
  }

  Status unloadModule(void *module) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.executables.unloadModule(static_cast<CUmodule>(module));
  }

  Expected<void *> getFunction(void *module, const char *name) override {
    Scoped s;
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
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.launcher.launch(
        static_cast<CUfunction>(function), grid, block, cluster, smem,
        static_cast<CUstream>(stream), params, paramsCount, extra);
  }

  Expected<void *> createStream() override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.createStream(s.context);
  }

  Status destroyStream(void *stream) override {
    if (!stream)
      return Status::success(); // The default stream.
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.destroyStream(s.context,
                                       static_cast<CUstream>(stream));
  }

  Status synchronize(void *stream) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.synchronize(static_cast<CUstream>(stream));
  }

  Status streamWaitEvent(void *stream, void *event) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.streamWaitEvent(static_cast<CUstream>(stream),
                                         static_cast<CUevent>(event));
  }

  Expected<void *> createEvent() override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.createEvent();
  }

  Status destroyEvent(void *event) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.destroyEvent(static_cast<CUevent>(event));
  }

  Status synchronizeEvent(void *event) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.synchronizeEvent(static_cast<CUevent>(event));
  }

  Status recordEvent(void *event, void *stream) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.recordEvent(static_cast<CUevent>(event),
                                     static_cast<CUstream>(stream));
  }

  Expected<void *> allocate(uint64_t bytes, bool hostShared) override {
    if (bytes == 0)
      return nullptr;
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.allocate(bytes, hostShared);
  }

  Status free(void *pointer) override {
    if (!pointer)
      return Status::success();
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.free(pointer);
  }

  Status copy(void *dst, const void *src, size_t bytes, void *stream) override {
    if (bytes == 0)
      return Status::success();
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.copy(dst, src, bytes, static_cast<CUstream>(stream));
  }

  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    if (count == 0)
      return Status::success();
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.fill(dst, value, patternBytes, count,
                               static_cast<CUstream>(stream));
  }

  Status hostRegister(void *ptr, uint64_t bytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.hostRegister(ptr, bytes);
  }

  Status hostUnregister(void *ptr) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.hostUnregister(ptr);
  }

  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.hostRegisterMemRef(rank, descriptor,
                                             elementSizeBytes);
  }

  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.memory.hostUnregisterMemRef(rank, descriptor,
                                               elementSizeBytes);
  }

  Status setDefaultDevice(int32_t device) override {
    State &state = State::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    return state.device.setDevice(device);
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    State &state = State::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.launcher.setTimingCallback(callback, user);
    return Status::success();
  }

  /// kilnCudaTimed.
  Expected<double> timed(void (*work)(void *user, void *stream), void *user) {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.timed([&](CUstream stream) {
      work(user, stream);
      return Status::success();
    });
  }

  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.state.queue.timed([&](CUstream stream) {
      return s.state.memory.copyDeviceToDevice(dst, src, bytes, stream);
    });
  }

  KilnCudaStats stats() {
    State &state = State::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    KilnCudaStats stats = {};
    stats.moduleLoads = state.executables.moduleLoads();
    stats.launches = state.launcher.launches();
    stats.allocations = state.memory.allocations();
    stats.hostRegisterCalls = state.memory.hostRegisterCalls();
    stats.hostUnregisterCalls = state.memory.hostUnregisterCalls();
    stats.registeredRanges = state.memory.registeredRanges();
    return stats;
  }

private:
  CUDARuntime() = default;
};

//===-- Errors at the C boundary ------------------------------------------===//

/// How the entry points report an error: "kiln-cuda: MESSAGE" on stderr.
void printError(const Status &error) {
  kiln::rt::printError("kiln-cuda", error);
}

/// For the entry points without an error return: the value, or a message
/// and exit (at once after a Timeout).
constexpr kiln::rt::ExitOnError orExit{"kiln-cuda"};

CUDARuntime &cuda() { return CUDARuntime::get(); }

} // namespace

kiln::rt::Runtime &kiln::rt::boundaryRuntime() { return cuda(); }
const char *const kiln::rt::kBoundaryName = "kiln-cuda";

extern "C" {

kiln::rt::Runtime *kilnCudaRuntime() { return &cuda(); }

int kilnCudaListDevices() {
  int count = 0;
  Expected<std::string> text = cuda().listDevices(count);
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
  Expected<std::string> chip = cuda().deviceTarget();
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
  if (Status error = cuda().deviceInfo(*info)) {
    printError(error);
    return 1;
  }
  return 0;
}

void kilnCudaSetTimingCallback(KilnTimingCallback callback, void *user) {
  orExit(cuda().setTimingCallback(callback, user));
}

double kilnCudaTimed(void (*work)(void *user, void *stream), void *user) {
  return orExit(cuda().timed(work, user));
}

double kilnCudaDeviceCopy(void *dst, const void *src, size_t sizeBytes) {
  return orExit(cuda().deviceCopy(dst, src, sizeBytes));
}

void kilnCudaGetStats(KilnCudaStats *stats) { *stats = cuda().stats(); }

} // extern "C"
