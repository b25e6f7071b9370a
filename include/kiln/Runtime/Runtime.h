//===- Runtime.h - Kiln's runtimes for embedding, with errors ---*- C++ -*-===//
//
// The C++ interface of the runtimes, for programs that embed one and want
// its errors back: every call returns a Status or an Expected<T>
// (kiln/Runtime/Status.h) and nothing here prints or exits. It drives the
// same process-wide state as the mgpu* entry points (modules, kernels,
// streams and allocations are interchangeable between the two), which are
// thin wrappers that report an error and exit, because upstream's ABI has no
// error returns. The interface covers the whole mgpu* surface (MGPU.h), and
// the entry points are defined once over it for every runtime
// (lib/Runtime/Common/MGPU.cpp).
//
//   kiln::rt::Runtime &vk = *kilnVulkanRuntime();
//   auto module = vk.loadModule(blob, size);
//   if (!module) { report(module.error()); return; }
//   ...
//   if (kiln::rt::Status s = vk.launch(fn, grid, block, 0, nullptr, params, n))
//     report(s); // s.kind(), s.message(), s.info().call, s.where()
//
// After an error the runtime stays usable, except after DeviceLost (every
// later call fails with it). After a Timeout the device still runs the
// work: the Vulkan runtime fails every later call with it and releases
// nothing at exit; the CUDA runtime goes on (later waits on that work time
// out again).
// The accessors, kilnVulkanRuntime(), kilnCudaRuntime() and
// kilnSpirvCpuRuntime(), are declared in VulkanRuntime.h, CUDARuntime.h and
// SPIRVCPURuntime.h and are plain C symbols, so a program may also find
// them with dlsym.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_RUNTIME_H
#define KILN_RUNTIME_RUNTIME_H

#include "kiln/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#ifndef KILN_TIMING_CALLBACK_DEFINED
#define KILN_TIMING_CALLBACK_DEFINED
extern "C" typedef void (*KilnTimingCallback)(void *user, const char *kernel,
                                              double gpuMicroseconds);
#endif
#ifndef KILN_DEVICE_TIMING_CALLBACK_DEFINED
#define KILN_DEVICE_TIMING_CALLBACK_DEFINED
/// A launch's GPU time and the device (its index in the program's device
/// list) it ran on.
extern "C" typedef void (*KilnDeviceTimingCallback)(void *user,
                                                    const char *kernel,
                                                    int32_t device,
                                                    double gpuMicroseconds);
#endif

namespace kiln {
namespace rt {

/// A grid or block size.
struct Dim3 {
  intptr_t x = 1, y = 1, z = 1;
};

/// How a runtime runs, as a program gives it before the runtime's first use
/// (the runners' and executables' command lines). A field left empty falls
/// back to the runtime's environment variable; a set one wins over it. Text
/// fields are read as that variable's text would be.
struct Options {
  /// KILN_VULKAN_DEVICE, KILN_CUDA_DEVICE, KILN_SPIRV_CPU_DEVICE: the
  /// program's devices, a comma-separated list whose entries are an index, a
  /// name substring or a UUID; the list's order numbers them 0..N-1
  /// (docs/runtime.md). The same device may be listed twice. Empty: the
  /// runtime's default device.
  std::optional<std::string> device;
  /// KILN_TIMEOUT: the longest wait for the device, in seconds.
  std::optional<std::string> timeout;
  /// KILN_CPU_THREADS: the spirv-cpu runtime's worker threads.
  std::optional<std::string> threads;
  /// KILN_VULKAN_VALIDATION: the Khronos validation layer.
  std::optional<bool> validation;
  /// KILN_VULKAN_ROBUST: robust buffer access.
  std::optional<bool> robust;
  /// KILN_VULKAN_TIMING, KILN_CUDA_TIMING, KILN_SPIRV_CPU_TIMING.
  std::optional<bool> timing;
  /// KILN_VULKAN_PRINTF: debug printf from the start (true) or kernels that
  /// print run silently (false).
  std::optional<bool> printf;

  /// The fields `other` sets replace these.
  void merge(const Options &other) {
    auto take = [](auto &to, const auto &from) {
      if (from)
        to = from;
    };
    take(device, other.device);
    take(timeout, other.timeout);
    take(threads, other.threads);
    take(validation, other.validation);
    take(robust, other.robust);
    take(timing, other.timing);
    take(printf, other.printf);
  }
};

/// One runtime: the process's devices of one backend (Vulkan, CUDA or
/// spirv-cpu), each listed device a single-device runtime behind this
/// interface (lib/Runtime/DeviceList.h). Thread-safe as the mgpu* entry
/// points are.
class Runtime {
public:
  virtual ~Runtime() = default;

  /// "vulkan", "cuda" or "spirv-cpu".
  virtual const char *backend() const = 0;

  /// Sets options (merged with those set before) that the runtime reads
  /// when it starts; an error once it has started (a Vulkan instance, the
  /// CUDA driver or the spirv-cpu workers exist). Options a runtime has no
  /// use for are ignored.
  virtual Status configure(const Options &options) = 0;
  /// Opens the driver and creates the device, as the first call that needs
  /// them would.
  virtual Status initialize() = 0;
  /// Every device, one paragraph each (what the runners' --list-devices
  /// prints).
  virtual Expected<std::string> describeDevices() = 0;
  /// What kernels for the chosen device are compiled for: the
  /// `#spirv.target_env` attribute text (Vulkan) or "sm_XY" (CUDA).
  virtual Expected<std::string> deviceTarget() = 0;

  /// A module from a blob (a Kiln container or SPIR-V; a cubin, fatbin or
  /// PTX), as mgpuModuleLoad takes it.
  virtual Expected<void *> loadModule(const void *data, size_t size) = 0;
  virtual Status unloadModule(void *module) = 0;
  /// mgpuModuleLoadJIT: PTX text JIT-compiled at `optLevel` (CUDA). The
  /// other runtimes take binaries only and refuse it.
  virtual Expected<void *> loadModuleJIT(void *data, int optLevel) {
    return KILN_ERROR(InvalidArgument,
                      std::string("mgpuModuleLoadJIT: ") + backend() +
                          " modules are binaries; load them with "
                          "mgpuModuleLoad");
  }
  virtual Expected<void *> getFunction(void *module, const char *name) = 0;
  /// `params[i]` points at the i-th kernel argument value, as for
  /// mgpuLaunchKernel; `stream` null is the default stream.
  virtual Status launch(void *function, Dim3 grid, Dim3 block,
                        int32_t sharedMemoryBytes, void *stream, void **params,
                        size_t paramsCount) = 0;
  /// mgpuLaunchKernel and mgpuLaunchClusterKernel as they come: `cluster`
  /// (null: none) and `extra` (cuLaunchKernel's extra options, null from
  /// MLIR's lowering) are CUDA's; the other runtimes refuse either.
  virtual Status launchFull(void *function, Dim3 grid, Dim3 block,
                            const Dim3 *cluster, int32_t sharedMemoryBytes,
                            void *stream, void **params, size_t paramsCount,
                            void **extra) {
    if (cluster)
      return KILN_ERROR(Unsupported,
                        std::string("mgpuLaunchClusterKernel: thread-block "
                                    "clusters are CUDA's; the ") +
                            backend() + " runtime has none");
    if (extra)
      return KILN_ERROR(InvalidArgument,
                        std::string("mgpuLaunchKernel with extra launch "
                                    "options (cuLaunchKernel's `extra`), "
                                    "which the ") +
                            backend() + " runtime does not take");
    return launch(function, grid, block, sharedMemoryBytes, stream, params,
                  paramsCount);
  }

  virtual Expected<void *> createStream() = 0;
  virtual Status destroyStream(void *stream) = 0;
  /// Waits for everything submitted to `stream` (null: the default one).
  virtual Status synchronize(void *stream) = 0;

  /// Events: handles that createEvent returned and destroyEvent did not
  /// destroy; any other is an error.
  virtual Expected<void *> createEvent() = 0;
  virtual Status destroyEvent(void *event) = 0;
  /// Marks the point in `stream` (null: the default one) that `event`
  /// completes at.
  virtual Status recordEvent(void *event, void *stream) = 0;
  /// Waits until `event` completed.
  virtual Status synchronizeEvent(void *event) = 0;
  /// Orders later work on `stream` after `event`.
  virtual Status streamWaitEvent(void *stream, void *event) = 0;

  /// Device memory (visible to the host too when `hostShared`).
  virtual Expected<void *> allocate(uint64_t bytes, bool hostShared) = 0;
  virtual Status free(void *pointer) = 0;
  /// Copies between host memory and allocations, either way.
  virtual Status copy(void *dst, const void *src, size_t bytes,
                      void *stream) = 0;
  /// Stores `count` copies of the low `patternBytes` (2 or 4) bytes of
  /// `pattern` at `dst` (mgpuMemset16 and mgpuMemset32).
  virtual Status fill(void *dst, uint32_t pattern, unsigned patternBytes,
                      size_t count, void *stream) = 0;
  /// Stores `value` in `count` 32-bit words at `dst`.
  Status fill32(void *dst, uint32_t value, size_t count, void *stream) {
    return fill(dst, value, 4, count, stream);
  }

  /// mgpuMemHostRegister and the rest: pins host memory the device reads
  /// directly (CUDA). Vulkan and spirv-cpu import or stage host memory at
  /// each launch, so there they accept and do nothing.
  virtual Status hostRegister(void *pointer, uint64_t bytes) {
    return Status::success();
  }
  virtual Status hostUnregister(void *pointer) { return Status::success(); }
  virtual Status hostRegisterMemRef(int64_t rank, void *descriptor,
                                    int64_t elementBytes) {
    return Status::success();
  }
  virtual Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                                      int64_t elementBytes) {
    return Status::success();
  }

  /// mgpuSetDefaultDevice: makes `device` (an index in the program's device
  /// list) the calling thread's current device. Streams, allocations and
  /// events made later on this thread belong to it; an index past the list
  /// is an error naming the list.
  virtual Status setDefaultDevice(int32_t device) = 0;
  /// How many devices the program's list names (1 for a runtime that
  /// stands alone).
  virtual int32_t deviceCount() { return 1; }
  /// The calling thread's current device.
  virtual int32_t currentDevice() { return 0; }

  /// Reports the GPU time of every later launch to `callback` (null: off).
  virtual Status setTimingCallback(KilnTimingCallback callback, void *user) = 0;
  /// The same, with the index of the device each launch ran on.
  virtual Status setDeviceTimingCallback(KilnDeviceTimingCallback callback,
                                         void *user) {
    return KILN_ERROR(Unsupported,
                      std::string("the ") + backend() +
                          " runtime's single devices report timing without "
                          "an index; ask the process's runtime");
  }
  /// Copies `bytes` from `src`, memory of `source` (another device of the
  /// same backend), to `dst`, this runtime's memory, without the host in
  /// between: true when done, false where this backend has no such copy
  /// (the caller then stages through host memory).
  virtual Expected<bool> copyFromPeer(void *dst, Runtime &source,
                                      const void *src, size_t bytes) {
    return false;
  }
  /// A device-to-device copy of `bytes` between two allocations, waited
  /// for: its GPU microseconds, or -1 where the device cannot time it.
  virtual Expected<double> deviceCopy(void *dst, const void *src,
                                      size_t bytes) = 0;
};

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_RUNTIME_H
