//===- Runtimes.h - The Python package's runtimes ---------------*- C++ -*-===//
//
// A JIT-compiled program calls the mgpu* entry points of the runtime library
// it was linked with at JIT time: libkiln_<target>_runtime.so in Kiln's lib/.
// The package opens that same library (dlopen of the same file gives the same
// instance), takes its kiln::rt::Runtime from kilnVulkanRuntime,
// kilnCudaRuntime or kilnSpirvCpuRuntime, and its kilnSetErrorHandler, with
// which a call into the library turns a fatal error into a returned message.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PYTHON_RUNTIMES_H
#define KILN_PYTHON_RUNTIMES_H

#include "kiln/Runtime/Runtime.h"

#include <mutex>
#include <string>
#include <vector>

extern "C" typedef void (*KilnErrorHandlerFn)(void *user, const char *runtime,
                                              const char *message);

namespace kiln {
namespace python {

/// One launch that kiln.timing() recorded.
struct LaunchTime {
  std::string kernel;
  int32_t device;
  double gpuMicroseconds;
};

/// One target's runtime library, opened once per process.
class RuntimeLibrary {
public:
  /// "vulkan", "cuda" or "spirv-cpu".
  const std::string &target() const { return targetName; }
  /// The library's path, for the JIT.
  const std::string &path() const { return libraryPath; }
  rt::Runtime &runtime() { return *rt; }

  /// Hands `options.device` to the runtime before its first use; the same
  /// list again later is accepted, another one once the runtime has started
  /// is an error.
  bool configureDevice(const std::string &device, std::string &error);

  /// Calls `fn(arg)` on this thread with the library's fatal errors caught:
  /// false with `error` set to "kiln-vulkan: MESSAGE" when one ended the
  /// call. `fn` must be code without destructors between here and the
  /// library (JIT-compiled host code).
  bool guardedCall(void (*fn)(void *), void *arg, std::string &error);

  /// kiln.timing(): starts recording launch times (nested starts share the
  /// record) and returns where this start's launches begin in it, or -1
  /// with `error` set; stopTiming returns the launches from `from` on and
  /// stops recording after the last stop.
  long startTiming(std::string &error);
  std::vector<LaunchTime> stopTiming(long from);

private:
  friend RuntimeLibrary *openRuntime(const std::string &target,
                                     std::string &error);
  static void onLaunch(void *user, const char *kernel, int32_t device,
                       double gpuMicroseconds);

  std::string targetName;
  std::string libraryPath;
  rt::Runtime *rt = nullptr;
  void (*setErrorHandler)(KilnErrorHandlerFn, void *, KilnErrorHandlerFn *,
                          void **) = nullptr;
  std::mutex mutex;
  std::string configuredDevice;
  bool deviceConfigured = false;
  int timingUsers = 0;
  std::vector<LaunchTime> launches;
};

/// The runtime library of `target`, opened on first use; null with `error`
/// set when it cannot be.
RuntimeLibrary *openRuntime(const std::string &target, std::string &error);

/// Kiln's lib/: KILN_LIBRARY_DIR, else found relative to the extension (the
/// build tree's build/lib for build/python/kiln, an installation's
/// PREFIX/lib for PREFIX/lib/python3/dist-packages/kiln).
std::string libraryDir();

} // namespace python
} // namespace kiln

#endif // KILN_PYTHON_RUNTIMES_H
