//===- DeviceRuntime.h - One spirv-cpu device -------------------*- C++ -*-===//
//
// The spirv-cpu runtime's single-device runtime: one entry of the program's
// device list (KILN_SPIRV_CPU_DEVICE, --device), with its own Modules,
// Memory, Streams and Launcher, and its own Executor. The host has one
// device, its CPU; every entry names it ("", "0", "cpu" or a part of the
// CPU's model name), and each entry is an independent device with its own
// share of the worker threads (the configured count divided by the list's
// length, at least 1). The process's runtime (kilnSpirvCpuRuntime()) is an
// rt::DeviceList over makeDevice; tests make lists of their own with it.
// Only the registry that compiled kernels join from their constructors is
// process-wide (Modules.h).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_DEVICERUNTIME_H
#define KILN_RUNTIME_SPIRVCPU_DEVICERUNTIME_H

#include "../DeviceList.h"
#include "Launcher.h"
#include "Memory.h"
#include "Modules.h"
#include "Streams.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"

#include <memory>
#include <mutex>
#include <string>

namespace kiln::spirvcpu {

/// The CPU's model name from /proc/cpuinfo, or "host CPU".
std::string cpuModel();

/// One spirv-cpu device: the host CPU with its own share of the workers.
class SPIRVCPURuntime final : public rt::Runtime {
public:
  /// The device at `place` in the program's list (the default place: a
  /// runtime that stands alone, with every worker).
  explicit SPIRVCPURuntime(rt::DevicePlace place = {});
  ~SPIRVCPURuntime() override;

  const char *backend() const override { return "spirv-cpu"; }

  /// Options::device is this device's one entry: "" or "0" (the host CPU),
  /// "cpu" or a part of the CPU's model name. Any other entry (an index
  /// past 0, another name, a UUID: the CPU has none) is an error naming it
  /// and the one device, here and at every later initialize or launch.
  rt::Status configure(const rt::Options &options) override;
  rt::Status initialize() override;
  rt::Expected<std::string> describeDevices() override;
  rt::Expected<std::string> deviceTarget() override;

  rt::Expected<void *> loadModule(const void *data, size_t size) override;
  rt::Status unloadModule(void *module) override;
  rt::Expected<void *> getFunction(void *module, const char *name) override;
  rt::Status launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                    int32_t sharedMemoryBytes, void *stream, void **params,
                    size_t paramsCount) override;

  rt::Expected<void *> createStream() override;
  rt::Status destroyStream(void *stream) override;
  rt::Status synchronize(void *stream) override;

  rt::Expected<void *> createEvent() override;
  rt::Status destroyEvent(void *event) override;
  rt::Status recordEvent(void *event, void *stream) override;
  rt::Status synchronizeEvent(void *event) override;
  rt::Status streamWaitEvent(void *stream, void *event) override;

  rt::Expected<void *> allocate(uint64_t bytes, bool hostShared) override;
  rt::Status free(void *pointer) override;
  rt::Status copy(void *dst, const void *src, size_t bytes,
                  void *stream) override;
  rt::Status fill(void *dst, uint32_t value, unsigned patternBytes,
                  size_t count, void *stream) override;
  rt::Expected<double> deviceCopy(void *dst, const void *src,
                                  size_t bytes) override;
  /// Every spirv-cpu device's memory is host memory: a copy from another
  /// spirv-cpu device is one memmove, both ranges placed against their
  /// devices' allocations. False for a source of another backend.
  rt::Expected<bool> copyFromPeer(void *dst, rt::Runtime &source,
                                  const void *src, size_t bytes) override;

  rt::Status setTimingCallback(KilnTimingCallback callback,
                               void *user) override;
  /// Reports each launch with this device's index in the list.
  rt::Status setDeviceTimingCallback(KilnDeviceTimingCallback callback,
                                     void *user) override;
  /// The list chooses the current device; a single device takes only 0.
  rt::Status setDefaultDevice(int32_t device) override;

  /// This device's counters, with the process's registered kernels.
  KilnSpirvCpuStats stats();
  /// Where this device sits in the program's list.
  const rt::DevicePlace &devicePlace() const { return place; }

private:
  /// The error configure found in this device's entry, if any.
  rt::Status entryError();

  const rt::DevicePlace place;
  std::mutex mutex;
  rt::Status badEntry; ///< Guarded by `mutex`.

  // In their dependency order: the Launcher uses the three before it.
  Modules modules;
  Memory memory;
  Streams streams;
  Launcher launcher;
};

/// The single-device runtime for `place`: the factory of the process's
/// rt::DeviceList (and of the tests' lists).
std::unique_ptr<rt::Runtime> makeDevice(rt::DevicePlace place);

} // namespace kiln::spirvcpu

#endif // KILN_RUNTIME_SPIRVCPU_DEVICERUNTIME_H
