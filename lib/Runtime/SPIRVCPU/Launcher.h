//===- Launcher.h - Launches over the host's cores --------------*- C++ -*-===//
//
// The top unit of the spirv-cpu runtime: a launch looked up and checked in
// phases, each its own function (the kernel handle through Modules and the
// stream through Streams; dynamic workgroup memory; grid and block; the
// timeout; the parameters decoded against the kernel's table, each memref
// placed through Memory), then run through the Executor, timed and
// counted. It also holds what configure sets (worker threads, timeout,
// timing) and starts the device's Executor: its share of the worker
// threads. A memref that is no allocation of this device is checked
// against the other devices of the program's list (DevicePlace) before it
// is taken as host memory. It calls down only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_LAUNCHER_H
#define KILN_RUNTIME_SPIRVCPU_LAUNCHER_H

#include "../DeviceList.h"
#include "Executor.h"
#include "Memory.h"
#include "Modules.h"
#include "Streams.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace kiln::spirvcpu {

class Launcher {
public:
  /// The launcher of the device at `place`.
  Launcher(Modules &modules, Memory &memory, Streams &streams,
           rt::DevicePlace place);
  Launcher(const Launcher &) = delete;
  Launcher &operator=(const Launcher &) = delete;

  /// rt::Runtime::configure: worker threads only before the workers start.
  rt::Status configure(const rt::Options &given);
  /// The device's executor, its workers started at the first call: its
  /// share of the threads the options or KILN_CPU_THREADS ask for.
  rt::Expected<Executor *> workers();
  /// The worker threads the program asked for (configure), if it did.
  std::optional<std::string> threadsOption();
  /// The threads the options or KILN_CPU_THREADS ask for (`configured`,
  /// for the whole process) and this device's share of them: `configured`
  /// divided by the devices of the list, at least 1. Each device is the
  /// host CPU with its own share of the workers, so that N devices together
  /// run about as many workers as one device alone would.
  rt::Expected<unsigned> threadShare(unsigned *configured = nullptr);
  /// Reports the time of every later launch to `callback` (null: off).
  void setTimingCallback(KilnTimingCallback callback, void *user);
  /// The same, with this device's index in the program's list.
  void setDeviceTimingCallback(KilnDeviceTimingCallback callback, void *user);
  /// The counters (registeredKernels left 0: the registry's).
  KilnSpirvCpuStats stats();

  /// mgpuLaunchKernel: runs the whole grid before it returns.
  rt::Status launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                    int32_t sharedMemoryBytes, void *stream, void **params,
                    size_t paramsCount);

private:
  using Clock = std::chrono::steady_clock;

  /// Dynamic workgroup memory: `sharedMemoryBytes` in whole elements of the
  /// kernel's array, at least one, within the target env's 64 KiB with the
  /// static. 0 for a kernel without it.
  static rt::Expected<uint32_t> dynamicBytes(const Kernel &kernel,
                                             int32_t sharedMemoryBytes);
  /// The grid and block against the runtime's limits and the kernel's
  /// workgroup size, into `run`'s grid, block and invocations.
  static rt::Status checkShape(const Kernel &kernel, rt::Dim3 grid,
                               rt::Dim3 block, Launch &run);
  /// The workgroups of `run`'s grid, at most 2^48.
  static rt::Status countWorkgroups(const Kernel &kernel, Launch &run);
  /// KILN_TIMEOUT (or the option): seconds, 0 for no limit.
  rt::Expected<double> timeoutSeconds();
  /// The parameters against the kernel's table: scalars and memref
  /// metadata into the push-constant block, memrefs placed through Memory,
  /// then each resource of the KernelDesc bound.
  rt::Status decode(const Kernel &kernel, void **params, size_t paramsCount,
                    Launch &launch);
  /// Runs `run` on the workers, counts it and reports its time.
  rt::Status execute(const std::shared_ptr<Launch> &run, double timeout,
                     Clock::time_point start);

  Modules &modules;
  Memory &memory;
  Streams &streams;
  const rt::DevicePlace place;

  std::mutex mutex;
  /// Started at the first launch (or initialize), never replaced.
  std::unique_ptr<Executor> executor;
  /// What the program set (configure) over the environment.
  rt::Options options;
  bool envTiming = false;
  bool workersStarted = false;
  KilnTimingCallback timingCallback = nullptr;
  void *timingUser = nullptr;
  KilnDeviceTimingCallback deviceTimingCallback = nullptr;
  void *deviceTimingUser = nullptr;
  KilnSpirvCpuStats counters = {};
};

} // namespace kiln::spirvcpu

#endif // KILN_RUNTIME_SPIRVCPU_LAUNCHER_H
