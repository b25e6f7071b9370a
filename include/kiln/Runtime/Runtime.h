//===- Runtime.h - Kiln's runtimes for embedding, with errors ---*- C++ -*-===//
//
// The C++ interface of both runtimes, for programs that embed one and want
// its errors back: every call returns a Status or an Expected<T>
// (kiln/Runtime/Status.h) and nothing here prints or exits. It drives the
// same process-wide state as the mgpu* entry points (modules, kernels,
// streams and allocations are interchangeable between the two), which are
// thin wrappers that report an error and exit, because upstream's ABI has no
// error returns.
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
// The accessors, kilnVulkanRuntime() and kilnCudaRuntime(), are declared in
// VulkanRuntime.h and CUDARuntime.h and are plain C symbols, so a program
// may also find them with dlsym.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_RUNTIME_H
#define KILN_RUNTIME_RUNTIME_H

#include "kiln/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

#ifndef KILN_TIMING_CALLBACK_DEFINED
#define KILN_TIMING_CALLBACK_DEFINED
extern "C" typedef void (*KilnTimingCallback)(void *user, const char *kernel,
                                              double gpuMicroseconds);
#endif

namespace kiln {
namespace rt {

/// A grid or block size.
struct Dim3 {
  intptr_t x = 1, y = 1, z = 1;
};

/// One runtime: the process-wide device state of the Vulkan or the CUDA
/// runtime. Thread-safe as the mgpu* entry points are.
class Runtime {
public:
  virtual ~Runtime() = default;

  /// "vulkan" or "cuda".
  virtual const char *backend() const = 0;

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
  virtual Expected<void *> getFunction(void *module, const char *name) = 0;
  /// `params[i]` points at the i-th kernel argument value, as for
  /// mgpuLaunchKernel; `stream` null is the default stream.
  virtual Status launch(void *function, Dim3 grid, Dim3 block,
                        int32_t sharedMemoryBytes, void *stream, void **params,
                        size_t paramsCount) = 0;

  virtual Expected<void *> createStream() = 0;
  virtual Status destroyStream(void *stream) = 0;
  /// Waits for everything submitted to `stream` (null: the default one).
  virtual Status synchronize(void *stream) = 0;

  /// Device memory (visible to the host too when `hostShared`).
  virtual Expected<void *> allocate(uint64_t bytes, bool hostShared) = 0;
  virtual Status free(void *pointer) = 0;
  /// Copies between host memory and allocations, either way.
  virtual Status copy(void *dst, const void *src, size_t bytes,
                      void *stream) = 0;
  /// Stores `value` in `count` 32-bit words at `dst`.
  virtual Status fill32(void *dst, uint32_t value, size_t count,
                        void *stream) = 0;

  /// Reports the GPU time of every later launch to `callback` (null: off).
  virtual Status setTimingCallback(KilnTimingCallback callback, void *user) = 0;
  /// A device-to-device copy of `bytes` between two allocations, waited
  /// for: its GPU microseconds, or -1 where the device cannot time it.
  virtual Expected<double> deviceCopy(void *dst, const void *src,
                                      size_t bytes) = 0;
};

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_RUNTIME_H
