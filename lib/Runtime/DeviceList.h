//===- DeviceList.h - A process's devices, one runtime each -----*- C++ -*-===//
//
// The device model every runtime shares. The program's devices are a list
// (--device=, KILN_VULKAN_DEVICE, KILN_CUDA_DEVICE: comma-separated entries,
// each an index, a name substring or a UUID), numbered 0..N-1 in the list's
// order; one physical device listed twice gives two independent devices.
// Each entry is one single-device runtime of the backend (its Device, Memory,
// Queue and Launcher units); DeviceList composes them behind rt::Runtime:
//
// - each host thread has a current device (0 until mgpuSetDefaultDevice);
// - streams, gpu.alloc memory and events belong to the device that was
//   current when they were made, and a launch, copy or fill runs on the
//   device its stream or memory belongs to;
// - a module is loaded on the current device at mgpuModuleLoad and, from
//   the blob it keeps, on any other device at its first launch there (MLIR
//   loads modules in a global constructor, before any set_default_device);
// - copies between two devices' memory go through the host, or the
//   backend's peer copy where it has one;
// - the list's lock guards only its tables and is never held across a call
//   into a device, so threads on different devices do not serialise.
//
// Standard C++ only: each runtime library compiles Common/DeviceList.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DEVICELIST_H
#define KILN_RUNTIME_DEVICELIST_H

#include "kiln/Runtime/Runtime.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln {
namespace rt {

/// Where one single-device runtime sits in the process's list, and what it
/// may ask of the others.
struct DevicePlace {
  /// The device's number in the program's list (what
  /// mgpuSetDefaultDevice takes).
  int index = 0;
  /// How many devices the list names.
  int count = 1;
  /// Which device of the list allocated the byte at `address` with
  /// gpu.alloc: its index, or -1 for memory no device allocated (host
  /// memory). Null for a runtime that stands alone.
  std::function<int(uintptr_t address)> ownerOf;

  /// The device memory is checked against before a launch uses it: an
  /// error naming the kernel, the argument and both devices when the byte
  /// at `address` belongs to another device of the list.
  Status checkLaunchMemory(const std::string &kernel, size_t argument,
                           uintptr_t address) const;
};

/// The entries of a device list ("0,0", "llvmpipe,1"); `source` names where
/// it came from in errors ("--device", "KILN_VULKAN_DEVICE"). Empty text is
/// one entry, "" (the backend's default device).
Expected<std::vector<std::string>> parseDeviceList(const std::string &text,
                                                   const std::string &source);

/// Every device of one backend: a runtime per list entry, made on first use.
class DeviceList final : public Runtime {
public:
  /// Makes the single-device runtime for `place` (not configured yet; the
  /// list configures it with its entry as Options::device).
  using Factory = std::function<std::unique_ptr<Runtime>(DevicePlace place)>;

  /// `backend` as Runtime::backend() returns it; `variable` the environment
  /// variable with the list (KILN_VULKAN_DEVICE; null: the backend has no
  /// variable and takes --device only).
  DeviceList(const char *backend, const char *variable, Factory factory);
  ~DeviceList() override;

  /// The device of the calling thread (0 until it sets one).
  int currentIndex() const;
  /// Device `index`'s runtime, made and configured on first use; an error
  /// naming the list when there is no such device. The first use of a list
  /// of several devices opens them all (initialize()).
  Expected<Runtime *> device(int index);
  /// The calling thread's current device's runtime.
  Expected<Runtime *> current() { return device(currentIndex()); }
  /// The list's entries (read from the options or the environment on
  /// first use).
  Expected<std::vector<std::string>> entries();

  const char *backend() const override { return backendName; }
  Status configure(const Options &options) override;
  /// Opens every listed device, so that a bad entry is an error up front.
  Status initialize() override;
  Expected<std::string> describeDevices() override;
  Expected<std::string> deviceTarget() override;

  Expected<void *> loadModule(const void *data, size_t size) override;
  Expected<void *> loadModuleJIT(void *data, int optLevel) override;
  Status unloadModule(void *module) override;
  Expected<void *> getFunction(void *module, const char *name) override;
  Status launch(void *function, Dim3 grid, Dim3 block,
                int32_t sharedMemoryBytes, void *stream, void **params,
                size_t paramsCount) override;
  Status launchFull(void *function, Dim3 grid, Dim3 block, const Dim3 *cluster,
                    int32_t sharedMemoryBytes, void *stream, void **params,
                    size_t paramsCount, void **extra) override;

  Expected<void *> createStream() override;
  Status destroyStream(void *stream) override;
  Status synchronize(void *stream) override;

  Expected<void *> createEvent() override;
  Status destroyEvent(void *event) override;
  Status recordEvent(void *event, void *stream) override;
  Status synchronizeEvent(void *event) override;
  Status streamWaitEvent(void *stream, void *event) override;

  Expected<void *> allocate(uint64_t bytes, bool hostShared) override;
  Status free(void *pointer) override;
  Status copy(void *dst, const void *src, size_t bytes, void *stream) override;
  Status fill(void *dst, uint32_t pattern, unsigned patternBytes, size_t count,
              void *stream) override;

  Status hostRegister(void *pointer, uint64_t bytes) override;
  Status hostUnregister(void *pointer) override;
  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementBytes) override;
  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementBytes) override;

  Status setDefaultDevice(int32_t device) override;
  Status setTimingCallback(KilnTimingCallback callback, void *user) override;
  Status setDeviceTimingCallback(KilnDeviceTimingCallback callback,
                                 void *user) override;
  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override;
  int32_t deviceCount() override;
  int32_t currentDevice() override { return currentIndex(); }

  /// Which device allocated the byte at `address` (-1: none).
  int ownerOf(uintptr_t address) const;

  /// One device: its runtime and its place in the list (what its timing
  /// callback is handed).
  struct Slot {
    DeviceList *list = nullptr;
    int index = 0;
    std::unique_ptr<Runtime> runtime;
  };
  /// Hands a launch's timing from device `index` to the program's callback.
  void reportTiming(int index, const char *kernel, double us);

private:
  struct Module;
  struct Kernel;
  struct Event;

  /// Device `index`'s runtime, made and configured but not opened.
  Expected<Runtime *> made(int index);
  /// The device `stream` belongs to (null: the current one); -1 for a
  /// handle no device made, which the current device then refuses with its
  /// own message.
  int streamDevice(void *stream) const;
  /// The device whose allocation holds the byte at `address`, or -1. A
  /// range is placed against that allocation by the device itself.
  int memoryDevice(const void *address) const;
  /// `kernel`'s function on device `index`: loads its module there first.
  Expected<void *> functionOn(const std::shared_ptr<Kernel> &kernel, int index);
  /// Records a module the current device `loaded` from `size` bytes at
  /// `data` (PTX for mgpuModuleLoadJIT when `jit`); its handle.
  Expected<void *> addModule(Expected<void *> loaded, const void *data,
                             size_t size, bool jit, int optLevel);
  /// Calls `release` (unloadModule, destroyEvent) with each device's handle
  /// of one object; the first error.
  Status onEachDevice(const std::map<int, void *> &handles,
                      Status (Runtime::*release)(void *));
  std::shared_ptr<Module> findModule(void *handle) const;
  std::shared_ptr<Kernel> findKernel(void *handle) const;
  std::shared_ptr<Event> findEvent(void *handle) const;
  /// Copies between two devices' memory through the host (or the peer
  /// copy of the destination's backend).
  Status copyAcross(int dstDevice, void *dst, int srcDevice, const void *src,
                    size_t bytes);
  /// Sets the program's timing callback (one of the two kinds, or none)
  /// and hands it to every device made so far.
  Status setTiming(KilnTimingCallback plain, KilnDeviceTimingCallback indexed,
                   void *user);
  /// Turns device `slot`'s timing callback (reportTiming, with its index)
  /// on or off.
  Status installTiming(Slot &slot, bool on);

  const char *backendName;
  const char *variable;
  Factory factory;
  /// Identifies this list in the threads' current-device records.
  const uint64_t id;

  /// Set once device() needs no more than a lookup: the list holds one
  /// device, or all of them opened.
  std::atomic<bool> opened{false};
  std::once_flag openOnce;
  Status openStatus; ///< Why opening the list failed (set once).

  /// Held while a device is made and configured, and while the options or
  /// the timing callback change (so that a device being made misses
  /// neither); never taken under `mutex`. A device's configure takes the
  /// device's own lock, and a launch holds that lock while it asks the
  /// list (ownerOf, reportTiming) under `mutex`: making a device under
  /// `mutex` would order the two locks both ways.
  std::mutex making;

  mutable std::shared_mutex mutex; ///< Guards everything below.
  Options options;
  std::vector<std::string> list; ///< Read once, on first use.
  bool listRead = false;
  std::vector<std::unique_ptr<Slot>> devices; ///< One per entry.
  std::unordered_map<void *, int> streams;
  std::map<uintptr_t, std::pair<uint64_t, int>>
      allocations; ///< base: size, device
  std::unordered_map<void *, std::shared_ptr<Module>> modules;
  std::unordered_map<void *, std::shared_ptr<Kernel>> kernels;
  std::unordered_map<void *, std::shared_ptr<Event>> events;
  KilnTimingCallback timing = nullptr;
  KilnDeviceTimingCallback deviceTiming = nullptr;
  void *timingUser = nullptr;
};

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_DEVICELIST_H
