//===- Runtimes.cpp - The runtime libraries the Python package drives -----===//

#include "Runtimes.h"

#include <csetjmp>
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <sys/stat.h>

namespace kiln {
namespace python {

static bool isFile(const std::string &path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

static std::string parentOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string libraryDir() {
  if (const char *dir = std::getenv("KILN_LIBRARY_DIR"); dir && *dir)
    return dir;
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&libraryDir), &info) || !info.dli_fname)
    return "";
  // The extension is kiln/_kiln*.so; the build tree has Kiln's libraries
  // in build/lib beside build/python, an installation in PREFIX/lib above
  // PREFIX/lib/python3/dist-packages.
  std::string package = parentOf(info.dli_fname);
  for (const char *relative : {"/../../lib", "/../../.."}) {
    std::string dir = package + relative;
    if (isFile(dir + "/libkiln_spirv_cpu_runtime.so") ||
        isFile(dir + "/libkiln_vulkan_runtime.so"))
      return dir;
  }
  return package + "/../../lib";
}

namespace {
struct TargetLibrary {
  const char *target;
  const char *file;
  const char *accessor;
};
const TargetLibrary targetLibraries[] = {
    {"vulkan", "libkiln_vulkan_runtime.so", "kilnVulkanRuntime"},
    {"cuda", "libkiln_cuda_runtime.so", "kilnCudaRuntime"},
    {"spirv-cpu", "libkiln_spirv_cpu_runtime.so", "kilnSpirvCpuRuntime"},
};
} // namespace

RuntimeLibrary *openRuntime(const std::string &target, std::string &error) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<RuntimeLibrary>> opened;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = opened.find(target);
  if (it != opened.end())
    return it->second.get();
  const TargetLibrary *entry = nullptr;
  for (const TargetLibrary &candidate : targetLibraries)
    if (target == candidate.target)
      entry = &candidate;
  if (!entry) {
    error = "unknown target '" + target +
            "'; supported: vulkan, cuda, "
            "spirv-cpu";
    return nullptr;
  }
  std::string path = libraryDir() + "/" + entry->file;
  // Never unloaded: programs and device arrays live until the interpreter
  // ends, and the runtime releases its devices at exit.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    error = "cannot open Kiln's " + target + " runtime '" + path +
            "': " + (why ? why : "unknown error") +
            " (set KILN_LIBRARY_DIR to the folder of Kiln's libraries)";
    return nullptr;
  }
  auto accessor =
      reinterpret_cast<rt::Runtime *(*)()>(dlsym(handle, entry->accessor));
  auto setHandler = reinterpret_cast<void (*)(KilnErrorHandlerFn, void *,
                                              KilnErrorHandlerFn *, void **)>(
      dlsym(handle, "kilnSetErrorHandler"));
  if (!accessor || !setHandler) {
    error = "'" + path + "' is not a Kiln runtime of this version (no " +
            (accessor ? "kilnSetErrorHandler" : entry->accessor) + ")";
    return nullptr;
  }
  auto library = std::make_unique<RuntimeLibrary>();
  library->targetName = target;
  library->libraryPath = path;
  library->rt = accessor();
  library->setErrorHandler = setHandler;
  RuntimeLibrary *result = library.get();
  opened[target] = std::move(library);
  return result;
}

bool RuntimeLibrary::configureDevice(const std::string &device,
                                     std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  if (deviceConfigured && configuredDevice == device)
    return true;
  rt::Options options;
  options.device = device;
  if (rt::Status status = rt->configure(options)) {
    error = "device='" + device + "': " + status.message();
    if (deviceConfigured)
      error += " (the " + targetName + " runtime runs with device='" +
               configuredDevice + "' already)";
    return false;
  }
  deviceConfigured = true;
  configuredDevice = device;
  return true;
}

//===----------------------------------------------------------------------===//
// Fatal errors as returned messages
//===----------------------------------------------------------------------===//

namespace {
/// Where a guarded call returns to when the library reports a fatal error.
struct Recovery {
  sigjmp_buf env;
  std::string message;
};

extern "C" void recoverFromError(void *user, const char *runtime,
                                 const char *message) {
  auto *recovery = static_cast<Recovery *>(user);
  recovery->message = std::string(runtime) + ": " + message;
  siglongjmp(recovery->env, 1);
}
} // namespace

bool RuntimeLibrary::guardedCall(void (*fn)(void *), void *arg,
                                 std::string &error) {
  Recovery recovery;
  KilnErrorHandlerFn previous = nullptr;
  void *previousUser = nullptr;
  setErrorHandler(recoverFromError, &recovery, &previous, &previousUser);
  // Between here and the library's boundary (Boundary.h exitWith) there is
  // only JIT-compiled host code and the entry point's frames, whose
  // temporaries (the error's Status) are all that a jump out leaks.
  if (sigsetjmp(recovery.env, 0) == 0) {
    fn(arg);
    setErrorHandler(previous, previousUser, nullptr, nullptr);
    return true;
  }
  setErrorHandler(previous, previousUser, nullptr, nullptr);
  error = recovery.message;
  return false;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

void RuntimeLibrary::onLaunch(void *user, const char *kernel, int32_t device,
                              double gpuMicroseconds) {
  auto *self = static_cast<RuntimeLibrary *>(user);
  std::lock_guard<std::mutex> lock(self->mutex);
  self->launches.push_back({kernel ? kernel : "", device, gpuMicroseconds});
}

long RuntimeLibrary::startTiming(std::string &error) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (timingUsers++ > 0)
      return static_cast<long>(launches.size());
    launches.clear();
  }
  if (rt::Status status = rt->setDeviceTimingCallback(onLaunch, this)) {
    std::lock_guard<std::mutex> lock(mutex);
    --timingUsers;
    error = "timing on the " + targetName + " runtime: " + status.message();
    return -1;
  }
  return 0;
}

std::vector<LaunchTime> RuntimeLibrary::stopTiming(long from) {
  bool last = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    last = timingUsers > 0 && --timingUsers == 0;
  }
  if (last)
    (void)rt->setDeviceTimingCallback(nullptr, nullptr);
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<LaunchTime> result;
  if (from >= 0 && static_cast<size_t>(from) < launches.size())
    result.assign(launches.begin() + from, launches.end());
  if (last)
    launches.clear();
  return result;
}

} // namespace python
} // namespace kiln
