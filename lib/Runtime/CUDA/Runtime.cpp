//===- Runtime.cpp - The mgpu* ABI and Kiln's entry points on CUDA --------===//
//
// Three layers:
//  - Runtime, the process-wide state, whose methods do the work and return
//    a Status or an Expected (kiln/Runtime/Status.h); they expect the
//    caller to hold the lock.
//  - CUDARuntime, the kiln::rt::Runtime that kilnCudaRuntime() returns: each
//    method takes the lock (and makes the device's context current where
//    the driver call needs it) around Runtime's methods, and returns errors.
//  - The mgpu* and kiln* entry points, thin wrappers around CUDARuntime that
//    turn an error into a message on stderr and an exit (orExit), or a
//    non-zero result where their signature has one.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/CUDARuntime.h"

#include "../Boundary.h"
#include "../DeviceChoice.h"
#include "../EnvFlag.h"
#include "../Format.h"
#include "../Timeout.h"
#include "Driver.h"
#include "kiln/Target/SPIRV/Container.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace kiln::cudart;
using kiln::rt::Dim3;
using kiln::rt::ErrorKind;
using kiln::rt::Expected;
using kiln::rt::Status;

namespace {

/// The fatbin magic word; mgpuModuleLoad also tells cubin (ELF), PTX text
/// and Kiln's Vulkan container apart.
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;

/// What kind of error a driver call that returned `result` is.
ErrorKind kindOf(CUresult result) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    return ErrorKind::OutOfMemory;
  case CUDA_ERROR_INVALID_VALUE:
  case CUDA_ERROR_INVALID_DEVICE:
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_INVALID_SOURCE:
  case CUDA_ERROR_INVALID_HANDLE:
  case CUDA_ERROR_NOT_FOUND:
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
  case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    return ErrorKind::InvalidArgument;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_NOT_SUPPORTED:
    return ErrorKind::Unsupported;
  // Sticky errors: the context cannot be used any more.
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_NVLINK_UNCORRECTABLE:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return ErrorKind::DeviceLost;
  default:
    return ErrorKind::Driver;
  }
}

using kiln::rt::appendf;
using kiln::rt::describeBytes;

using kiln::rt::ScopeExit;

struct Registration {
  uintptr_t end;
  unsigned refs;
  /// Registered by someone else (the program, cuMemHostAlloc): never
  /// unregistered here.
  bool external;
};

/// The process-wide state. Every method expects the caller to hold `mutex`
/// (CUDARuntime's methods take it) and returns its errors.
class Runtime {
public:
  static Runtime &get() {
    static Runtime *runtime = new Runtime();
    return *runtime;
  }

  std::mutex mutex;
  /// The lock on `mutex` the calling thread holds, when an entry point took
  /// it (Scoped): waits for the device release it meanwhile, so that other
  /// threads go on (the driver API is thread-safe).
  static thread_local std::unique_lock<std::mutex> *heldLock;
  KilnCudaStats stats = {};

  /// Options the program sets before the driver is loaded (load reads
  /// them).
  Status configure(const kiln::rt::Options &given) {
    if (loaded)
      return KILN_ERROR(InvalidArgument,
                        "the CUDA runtime's options are set before it "
                        "starts; the driver is loaded already");
    options.merge(given);
    return Status::success();
  }

  /// Opens the driver and initializes it, on the first call that succeeds.
  Status load() {
    if (loaded)
      return Status::success();
    std::string error;
    if (!drv.load(error))
      return KILN_ERROR(Driver, error);
    KILN_TRY(check(drv.cuInit(0), "cuInit"));
    double seconds = 0;
    if (!kiln::rt::readTimeout(
            seconds, error,
            kiln::rt::settingText(options.timeout, "KILN_TIMEOUT")))
      return KILN_ERROR(InvalidArgument, error);
    timeoutSeconds = seconds;
    envTiming = kiln::rt::settingFlag(options.timing, "KILN_CUDA_TIMING");
    timing = envTiming || timingCallback;
    loaded = true;
    return Status::success();
  }

  /// The driver's entry points; only after load() succeeded.
  const Driver &driver() const { return drv; }

  /// What runs on `stream`, for messages: its last kernel.
  std::string workOn(CUstream stream) const {
    auto it = lastKernel.find(stream);
    return it == lastKernel.end() ? std::string("the work on a stream")
                                  : "kernel '" + it->second + "'";
  }

  /// Success, or the error for a driver call that returned `result`:
  /// "CALL (WHAT) failed: RESULT (description)", raised where check() was
  /// called.
  Status check(CUresult result, const char *call, const std::string &what = "",
               const char *file = __builtin_FILE(),
               int line = __builtin_LINE()) const {
    if (result == CUDA_SUCCESS)
      return Status::success();
    return failed(result, call, what, nullptr, file, line);
  }

  /// check() for a call that works on `stream`: a lost device also names
  /// the last kernel launched on it, where there is one.
  Status checkOn(CUstream stream, CUresult result, const char *call,
                 const std::string &what = "",
                 const char *file = __builtin_FILE(),
                 int line = __builtin_LINE()) const {
    if (result == CUDA_SUCCESS)
      return Status::success();
    return failed(result, call, what, &stream, file, line);
  }

  Status failed(CUresult result, const char *call, const std::string &what,
                const CUstream *stream, const char *file, int line) const {
    std::string message = std::string(call) +
                          (what.empty() ? "" : " (" + what + ")") +
                          " failed: " + drv.describe(result);
    ErrorKind kind = kindOf(result);
    if (kind == ErrorKind::DeviceLost && stream) {
      auto last = lastKernel.find(*stream);
      if (last != lastKernel.end())
        message += " after kernel '" + last->second + "'";
    }
    return callError(kind, result, call, std::move(message), file, line);
  }

  /// An error of `kind` for a failed driver call, with `message`.
  Status callError(ErrorKind kind, CUresult result, const char *call,
                   std::string message, const char *file, int line) const {
    if (result == CUDA_ERROR_ILLEGAL_ADDRESS)
      message += "; a kernel touched memory it may not: an index out of "
                 "bounds, or host memory that is not registered with the "
                 "driver (Kiln's CUDA pipeline registers host memrefs passed "
                 "to launches; other programs need gpu.host_register)";
    return kiln::rt::makeCallError(kind, std::move(message), call,
                                   drv.name(result), result, file, line);
  }

  /// Waits for a stream or event: `block` without KILN_TIMEOUT; with it,
  /// `query` polled until done, and past the limit a Timeout error that
  /// names `what` and the limit (the device still runs the work).
  template <typename Query, typename Block>
  Status waitFor(Query query, Block block, const char *call,
                 const std::string &what) {
    std::unique_lock<std::mutex> *lock = heldLock;
    if (lock)
      lock->unlock();
    auto relock = [&] {
      if (lock)
        lock->lock();
    };
    auto done = [&](CUresult result) {
      relock();
      if (result == CUDA_SUCCESS)
        return Status::success();
      return callError(kindOf(result), result, call,
                       std::string(call) + " failed: " + drv.describe(result) +
                           " while waiting for " + what,
                       __FILE__, __LINE__);
    };
    if (timeoutSeconds <= 0)
      return done(block());
    // The first 200 us are polled without sleeping: a short kernel is
    // done within microseconds, and the shortest sleep the kernel grants
    // is about 60 us (measured on an H200: a 9 us launch round trip took
    // 83 us when every wait slept). Longer work is polled with sleeps that
    // grow to 1 ms.
    auto start = std::chrono::steady_clock::now();
    auto pause = std::chrono::microseconds(50);
    while (true) {
      CUresult result = query();
      if (result != CUDA_ERROR_NOT_READY)
        return done(result);
      double waited = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      if (waited > timeoutSeconds) {
        relock();
        return KILN_ERROR(
            Timeout, kiln::rt::timeoutMessage(what, timeoutSeconds,
                                              deviceLabel(currentDevice())));
      }
      if (waited < 200e-6) {
        std::this_thread::yield();
        continue;
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
  }

  Expected<int> deviceCount() {
    KILN_TRY(load());
    int count = 0;
    KILN_TRY(check(drv.cuDeviceGetCount(&count), "cuDeviceGetCount"));
    return count;
  }

  Expected<std::string> deviceName(int index) {
    KILN_TRY(load());
    CUdevice device;
    KILN_TRY(check(drv.cuDeviceGet(&device, index), "cuDeviceGet"));
    char name[256] = {};
    KILN_TRY(check(drv.cuDeviceGetName(name, sizeof(name), device),
                   "cuDeviceGetName"));
    return std::string(name);
  }

  /// "INDEX (NAME)" for messages; what is known when `index` or the name
  /// cannot be had.
  std::string deviceLabel(const Expected<int> &index) {
    if (!index)
      return "?";
    Expected<std::string> name = deviceName(*index);
    return std::to_string(*index) + (name ? " (" + *name + ")" : "");
  }

  /// Reads `wanted` attributes of `device`.
  Status attributes(CUdevice device,
                    std::initializer_list<std::pair<int, int *>> wanted) {
    for (const auto &[attribute, value] : wanted)
      KILN_TRY(check(drv.cuDeviceGetAttribute(value, attribute, device),
                     "cuDeviceGetAttribute"));
    return Status::success();
  }

  /// The device later calls use: mgpuSetDefaultDevice's, else
  /// KILN_CUDA_DEVICE's, else 0.
  Expected<int> currentDevice() {
    if (selected >= 0)
      return selected;
    KILN_ASSIGN_OR_RETURN(int count, deviceCount());
    if (count == 0)
      return KILN_ERROR(Driver,
                        "no CUDA device (the driver loaded, but reports none)");
    const char *env = kiln::rt::settingText(options.device, "KILN_CUDA_DEVICE");
    std::string want = env ? env : "";
    if (want.empty()) {
      selected = 0;
      return selected;
    }
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i) {
      KILN_ASSIGN_OR_RETURN(std::string name, deviceName(i));
      names.push_back(std::move(name));
    }
    size_t index = 0;
    switch (kiln::rt::matchDevice(want, names, index)) {
    case kiln::rt::DeviceMatch::Found:
      selected = static_cast<int>(index);
      return selected;
    case kiln::rt::DeviceMatch::IndexOutOfRange:
      return KILN_ERROR(InvalidArgument, "KILN_CUDA_DEVICE=" + want +
                                             " is not a device index (" +
                                             devicesText(count) + ": 0.." +
                                             std::to_string(count - 1) + ")");
    case kiln::rt::DeviceMatch::NoSuchName:
      break;
    }
    return KILN_ERROR(InvalidArgument,
                      "no CUDA device matches '" + want +
                          "'; devices:" + kiln::rt::listDevices(names));
  }

  void setTimingCallback(KilnTimingCallback callback, void *user) {
    timingCallback = callback;
    timingUser = user;
    if (loaded)
      timing = envTiming || callback;
  }

  Status setDevice(int32_t device) {
    KILN_ASSIGN_OR_RETURN(int count, deviceCount());
    if (device < 0 || device >= count)
      return KILN_ERROR(InvalidArgument,
                        "mgpuSetDefaultDevice(" + std::to_string(device) +
                            "): no such device (" + devicesText(count) + ")");
    selected = device;
    return Status::success();
  }

  /// The primary context of the current device, retained on first use.
  Expected<CUcontext> context() {
    KILN_ASSIGN_OR_RETURN(int index, currentDevice());
    auto it = contexts.find(index);
    if (it != contexts.end())
      return it->second;
    CUdevice device;
    KILN_TRY(check(drv.cuDeviceGet(&device, index), "cuDeviceGet"));
    CUcontext ctx = nullptr;
    KILN_TRY(check(drv.cuDevicePrimaryCtxRetain(&ctx, device),
                   "cuDevicePrimaryCtxRetain"));
    contexts[index] = ctx;
    return ctx;
  }

  //===-- Devices ---------------------------------------------------------===//

  /// What kilnCudaListDevices prints; `count` is set to the number of
  /// devices.
  Expected<std::string> listDevices(int &count) {
    KILN_TRY(load());
    int version = 0;
    KILN_TRY(check(drv.cuDriverGetVersion(&version), "cuDriverGetVersion"));
    KILN_ASSIGN_OR_RETURN(count, deviceCount());
    std::string text;
    appendf(text, "CUDA driver %d.%d, %d device%s\n", version / 1000,
            (version % 1000) / 10, count, count == 1 ? "" : "s");
    for (int i = 0; i < count; ++i) {
      CUdevice device;
      KILN_TRY(check(drv.cuDeviceGet(&device, i), "cuDeviceGet"));
      size_t memory = 0;
      KILN_TRY(
          check(drv.cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"));
      KILN_ASSIGN_OR_RETURN(std::string name, deviceName(i));
      int major = 0, minor = 0, multiprocessors = 0, clock = 0, busWidth = 0,
          memoryClock = 0, l2 = 0, maxThreads = 0, maxBlockX = 0, maxGridX = 0,
          sharedMemory = 0;
      KILN_TRY(attributes(
          device,
          {{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
           {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor},
           {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &multiprocessors},
           {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &clock},
           {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &busWidth},
           {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &memoryClock},
           {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &l2},
           {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &maxThreads},
           {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &maxBlockX},
           {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &maxGridX},
           {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &sharedMemory}}));
      appendf(text, "%d: %s\n", i, name.c_str());
      appendf(text, "   chip sm_%d%d, %zu MiB, %d multiprocessors, %d MHz\n",
              major, minor, memory >> 20, multiprocessors, clock / 1000);
      appendf(text, "   memory %d-bit at %d MHz, L2 %d KiB\n", busWidth,
              memoryClock / 1000, l2 >> 10);
      appendf(text,
              "   max threads per block %d, max block x %d, max grid x %d, "
              "shared memory per block %d bytes\n",
              maxThreads, maxBlockX, maxGridX, sharedMemory);
    }
    return text;
  }

  /// "sm_XY" of the current device.
  Expected<std::string> deviceChip() {
    KILN_ASSIGN_OR_RETURN(int index, currentDevice());
    CUdevice device;
    KILN_TRY(check(drv.cuDeviceGet(&device, index), "cuDeviceGet"));
    int major = 0, minor = 0;
    KILN_TRY(attributes(
        device, {{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
                 {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor}}));
    return "sm_" + std::to_string(major) + std::to_string(minor);
  }

  Status deviceInfo(KilnCudaDeviceInfo &info) {
    info = KilnCudaDeviceInfo{};
    KILN_ASSIGN_OR_RETURN(info.ordinal, currentDevice());
    CUdevice device;
    KILN_TRY(check(drv.cuDeviceGet(&device, info.ordinal), "cuDeviceGet"));
    KILN_ASSIGN_OR_RETURN(std::string name, deviceName(info.ordinal));
    std::snprintf(info.name, sizeof(info.name), "%s", name.c_str());
    KILN_TRY(attributes(
        device,
        {{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.major},
         {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.minor},
         {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessors},
         {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &info.clockKHz},
         {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &info.memoryClockKHz},
         {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &info.memoryBusWidth},
         {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.l2Bytes}}));
    size_t memory = 0;
    KILN_TRY(check(drv.cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"));
    info.totalBytes = memory;
    KILN_TRY(check(drv.cuDriverGetVersion(&info.driverVersion),
                   "cuDriverGetVersion"));
    return Status::success();
  }

  //===-- Modules ---------------------------------------------------------===//

  Expected<void *> loadModule(const void *data, size_t size, int optLevel) {
    if (!data)
      return KILN_ERROR(InvalidArgument, "mgpuModuleLoad: null module data");
    uint32_t magic = 0;
    if (size >= 4)
      std::memcpy(&magic, data, 4);
    if (magic == kiln::container::kMagic)
      return KILN_ERROR(
          InvalidArgument,
          "mgpuModuleLoad: this module is SPIR-V in Kiln's container, "
          "compiled for Vulkan; run it with kiln-vulkan-runner or link "
          "libkiln_vulkan_runtime");
    const char *bytes = static_cast<const char *>(data);
    bool binary = (size >= 4 && std::memcmp(bytes,
                                            "\x7f"
                                            "ELF",
                                            4) == 0) ||
                  magic == kFatbinMagic;
    std::string ptx;
    const void *image = data;
    if (!binary) {
      // PTX text: the driver needs it NUL-terminated.
      size_t length = size ? strnlen(bytes, size) : std::strlen(bytes);
      ptx.assign(bytes, length);
      image = ptx.c_str();
    }
    char errorLog[8192] = {};
    char infoLog[4096] = {};
    int options[5] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                      CU_JIT_OPTIMIZATION_LEVEL};
    void *values[5] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                       infoLog, reinterpret_cast<void *>(sizeof(infoLog)),
                       reinterpret_cast<void *>(
                           static_cast<intptr_t>(std::clamp(optLevel, 0, 4)))};
    unsigned count = optLevel >= 0 && !binary ? 5 : 4;
    CUmodule module = nullptr;
    CUresult result =
        drv.cuModuleLoadDataEx(&module, image, count, options, values);
    if (result != CUDA_SUCCESS) {
      std::string message =
          std::string("cuModuleLoadDataEx (") +
          (binary ? magic == kFatbinMagic ? "fatbin" : "cubin" : "PTX") + ", " +
          std::to_string(size) + " bytes) failed: " + drv.describe(result);
      if (errorLog[0])
        message += "\nJIT error log:\n" + std::string(errorLog);
      return callError(kindOf(result), result, "cuModuleLoadDataEx",
                       std::move(message), __FILE__, __LINE__);
    }
    ++stats.moduleLoads;
    liveModules.insert(module);
    return module;
  }

  Expected<void *> getFunction(CUmodule module, const char *name) {
    if (!name)
      return KILN_ERROR(InvalidArgument,
                        "mgpuModuleGetFunction: null kernel name");
    CUfunction function = nullptr;
    CUresult result = drv.cuModuleGetFunction(&function, module, name);
    if (result == CUDA_ERROR_NOT_FOUND) {
      std::string message =
          std::string("no kernel '") + name + "' in the module";
      std::string names = kernelNames(module);
      if (!names.empty())
        message += " (kernels: " + names + ")";
      return callError(ErrorKind::InvalidArgument, result,
                       "cuModuleGetFunction", std::move(message), __FILE__,
                       __LINE__);
    }
    KILN_TRY(check(result, "cuModuleGetFunction", name));
    if (!functions.count(function)) {
      int maxThreads = 0;
      KILN_TRY(check(
          drv.cuFuncGetAttribute(
              &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
          "cuFuncGetAttribute", name));
      functions[function] = FunctionInfo{name, maxThreads, module};
    }
    return function;
  }

  std::string kernelNames(CUmodule module) {
    unsigned count = 0;
    if (!drv.cuModuleGetFunctionCount || !drv.cuModuleEnumerateFunctions ||
        !drv.cuFuncGetName ||
        drv.cuModuleGetFunctionCount(&count, module) != CUDA_SUCCESS)
      return "";
    std::vector<CUfunction> functions(count);
    if (drv.cuModuleEnumerateFunctions(functions.data(), count, module) !=
        CUDA_SUCCESS)
      return "";
    std::string names;
    for (CUfunction f : functions) {
      const char *name = nullptr;
      if (drv.cuFuncGetName(&name, f) == CUDA_SUCCESS && name)
        names += (names.empty() ? "" : ", ") + std::string(name);
    }
    return names;
  }

  struct FunctionInfo {
    std::string name;
    /// The most threads per block the compiled kernel can run.
    int maxThreads = 0;
    /// The module it came from (its entry goes when the module does).
    CUmodule module = nullptr;
  };

  /// What mgpuModuleGetFunction learnt about `function` (functions from
  /// elsewhere are asked for here). The pointer stays valid.
  Expected<const FunctionInfo *> infoOf(CUfunction function) {
    auto it = functions.find(function);
    if (it != functions.end())
      return &it->second;
    // Handles are looked up, never handed to the driver on trust.
    return KILN_ERROR(InvalidArgument,
                      "mgpuLaunchKernel with a function that "
                      "mgpuModuleGetFunction did not return (or whose module "
                      "was unloaded)");
  }

  /// Modules mgpuModuleLoad returned and mgpuModuleUnload did not unload,
  /// and streams mgpuStreamCreate returned and mgpuStreamDestroy did not
  /// destroy: what the runtime accepts as handles.
  std::set<CUmodule> liveModules;
  std::set<CUstream> liveStreams;

  Status checkModule(CUmodule module, const char *what) const {
    if (liveModules.count(module))
      return Status::success();
    return KILN_ERROR(InvalidArgument,
                      std::string(what) +
                          " of a module that mgpuModuleLoad did not return "
                          "(or that was unloaded)");
  }
  /// Null is the default stream.
  Status checkStream(CUstream stream, const char *what) const {
    if (!stream || liveStreams.count(stream))
      return Status::success();
    return KILN_ERROR(InvalidArgument,
                      std::string(what) +
                          " on a stream that mgpuStreamCreate did not return "
                          "(or that was destroyed)");
  }
  /// Forgets `module` and its functions.
  void forgetModule(CUmodule module) {
    liveModules.erase(module);
    for (auto it = functions.begin(); it != functions.end();)
      it = it->second.module == module ? functions.erase(it) : std::next(it);
  }

  //===-- Launches --------------------------------------------------------===//

  Status launch(CUfunction function, const intptr_t grid[3],
                const intptr_t block[3], const intptr_t *cluster, int32_t smem,
                CUstream stream, void **params, size_t paramsCount,
                void **extra) {
    KILN_ASSIGN_OR_RETURN(const FunctionInfo *info, infoOf(function));
    const std::string &name = info->name;
    for (int i = 0; i < 3; ++i) {
      if (grid[i] < 1 || grid[i] > 0x7fffffff || block[i] < 1 ||
          block[i] > 0x7fffffff)
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + name + "' launched with grid (" + dims(grid) +
                ") and block (" + dims(block) +
                "): every dimension must be at least 1 and fit in 32 bits");
    }
    int maxThreads = info->maxThreads;
    intptr_t threads = block[0] * block[1] * block[2];
    if (maxThreads > 0 && threads > maxThreads)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + name + "' launched with block (" + dims(block) +
              ") = " + std::to_string(threads) +
              " threads; it can run at most " + std::to_string(maxThreads) +
              " per block on device " + deviceLabel(currentDevice()));
    if (paramsCount > 0 && !params && !extra)
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + name +
                            "' launched with params null and paramsCount " +
                            std::to_string(paramsCount));
    if (cluster && !drv.cuLaunchKernelEx)
      return KILN_ERROR(Unsupported, "kernel '" + name +
                                         "' is a cluster launch, which needs "
                                         "cuLaunchKernelEx (CUDA 12 driver)");
    // The events that time the launch, destroyed on every path.
    CUevent start = nullptr, stop = nullptr;
    ScopeExit destroyEvents([&] {
      if (start)
        drv.cuEventDestroy(start);
      if (stop)
        drv.cuEventDestroy(stop);
    });
    auto hostStart = std::chrono::steady_clock::now();
    if (timing) {
      KILN_TRY(
          check(drv.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate"));
      KILN_TRY(
          check(drv.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate"));
      KILN_TRY(check(drv.cuEventRecord(start, stream), "cuEventRecord"));
    }
    if (cluster) {
      CUlaunchAttribute attribute = {};
      attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attribute.value.clusterDim.x = static_cast<unsigned>(cluster[0]);
      attribute.value.clusterDim.y = static_cast<unsigned>(cluster[1]);
      attribute.value.clusterDim.z = static_cast<unsigned>(cluster[2]);
      CUlaunchConfig config = {};
      config.gridDimX = static_cast<unsigned>(grid[0]);
      config.gridDimY = static_cast<unsigned>(grid[1]);
      config.gridDimZ = static_cast<unsigned>(grid[2]);
      config.blockDimX = static_cast<unsigned>(block[0]);
      config.blockDimY = static_cast<unsigned>(block[1]);
      config.blockDimZ = static_cast<unsigned>(block[2]);
      config.sharedMemBytes = static_cast<unsigned>(smem);
      config.hStream = stream;
      config.attrs = &attribute;
      config.numAttrs = 1;
      KILN_TRY(checkOn(stream,
                       drv.cuLaunchKernelEx(&config, function, params, extra),
                       "cuLaunchKernelEx", name));
    } else {
      KILN_TRY(checkOn(
          stream,
          drv.cuLaunchKernel(
              function, static_cast<unsigned>(grid[0]),
              static_cast<unsigned>(grid[1]), static_cast<unsigned>(grid[2]),
              static_cast<unsigned>(block[0]), static_cast<unsigned>(block[1]),
              static_cast<unsigned>(block[2]), static_cast<unsigned>(smem),
              stream, params, extra),
          "cuLaunchKernel", name));
    }
    lastKernel[stream] = name;
    ++stats.launches;
    if (timing) {
      KILN_TRY(check(drv.cuEventRecord(stop, stream), "cuEventRecord"));
      KILN_TRY(check(drv.cuEventSynchronize(stop), "cuEventSynchronize", name));
      double hostUs = std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - hostStart)
                          .count();
      float ms = 0;
      KILN_TRY(check(drv.cuEventElapsedTime(&ms, start, stop),
                     "cuEventElapsedTime"));
      if (envTiming)
        std::fprintf(stderr, "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f\n",
                     name.c_str(), ms * 1000.0, hostUs);
      if (timingCallback)
        timingCallback(timingUser, name.c_str(), ms * 1000.0);
    }
    return Status::success();
  }

  /// Runs `work(stream)` on a fresh stream between two events, waits for
  /// them and returns the GPU microseconds between them; the stream and the
  /// events are released on every path.
  template <typename Work> Expected<double> timed(Work work) {
    CUstream stream = nullptr;
    CUevent start = nullptr, stop = nullptr;
    ScopeExit release([&] {
      if (start)
        drv.cuEventDestroy(start);
      if (stop)
        drv.cuEventDestroy(stop);
      if (stream)
        drv.cuStreamDestroy(stream);
    });
    KILN_TRY(check(drv.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                   "cuStreamCreate"));
    KILN_TRY(
        check(drv.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate"));
    KILN_TRY(
        check(drv.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate"));
    KILN_TRY(check(drv.cuEventRecord(start, stream), "cuEventRecord"));
    KILN_TRY(work(stream));
    KILN_TRY(check(drv.cuEventRecord(stop, stream), "cuEventRecord"));
    KILN_TRY(check(drv.cuEventSynchronize(stop), "cuEventSynchronize"));
    float ms = 0;
    KILN_TRY(
        check(drv.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime"));
    return ms * 1000.0;
  }

  //===-- Memory ----------------------------------------------------------===//

  Expected<void *> allocate(uint64_t bytes, bool hostShared) {
    CUdeviceptr ptr = 0;
    const char *call = hostShared ? "cuMemAllocManaged" : "cuMemAlloc";
    CUresult result =
        hostShared ? drv.cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL)
                   : drv.cuMemAlloc(&ptr, bytes);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) {
      Expected<int> device = currentDevice();
      std::string has;
      CUdevice handle;
      size_t total = 0;
      if (device && drv.cuDeviceGet(&handle, *device) == CUDA_SUCCESS &&
          drv.cuDeviceTotalMem(&total, handle) == CUDA_SUCCESS)
        has = ", which has " + describeBytes(total) + " of memory";
      return callError(ErrorKind::OutOfMemory, result, call,
                       "cannot allocate " + describeBytes(bytes) +
                           " for an mgpuMemAlloc (gpu.alloc" +
                           (hostShared ? " host_shared" : "") + ") on device " +
                           deviceLabel(device) + has + ": " + call +
                           " failed: " + drv.describe(result),
                       __FILE__, __LINE__);
    }
    KILN_TRY(check(result, call, std::to_string(bytes) + " bytes"));
    ++stats.allocations;
    return reinterpret_cast<void *>(ptr);
  }

  //===-- Host registration -----------------------------------------------===//

  /// Registers the pages of [begin, end) that need it; on an error, what
  /// this call registered is undone.
  Status registerRange(uintptr_t begin, uintptr_t end) {
    if (begin >= end || !needsRegistration(begin))
      return Status::success();
    pageAlign(begin, end);
    uintptr_t at = begin;
    auto it = firstBlockEndingAfter(begin);
    while (at < end) {
      if (it != registrations.end() && it->first <= at) {
        ++it->second.refs;
        at = it->second.end;
        ++it;
        continue;
      }
      uintptr_t gapEnd =
          it == registrations.end() ? end : std::min(end, it->first);
      if (Status error = addBlock(at, gapEnd)) {
        // Every block that starts before `at` was counted by this call.
        (void)unregisterRange(begin, at);
        return error;
      }
      at = gapEnd;
    }
    return Status::success();
  }

  /// Undoes one registration of [begin, end); the first error, after
  /// going through all of it.
  Status unregisterRange(uintptr_t begin, uintptr_t end) {
    if (begin >= end)
      return Status::success();
    pageAlign(begin, end);
    Status first;
    auto it = firstBlockEndingAfter(begin);
    while (it != registrations.end() && it->first < end) {
      if (--it->second.refs == 0) {
        if (!it->second.external) {
          Status error = check(
              drv.cuMemHostUnregister(reinterpret_cast<void *>(it->first)),
              "cuMemHostUnregister");
          if (!error)
            ++stats.hostUnregisterCalls;
          else if (!first)
            first = std::move(error);
        }
        it = registrations.erase(it);
      } else {
        ++it;
      }
    }
    return first;
  }

  std::map<void *, std::vector<std::pair<uintptr_t, uintptr_t>>> rawRanges;
  /// Destroyed streams, per context, for mgpuStreamCreate to reuse.
  std::map<CUcontext, std::vector<CUstream>> streamPool;
  std::map<uintptr_t, Registration> registrations;

private:
  Runtime() = default;

  /// "1 device", "2 devices".
  static std::string devicesText(int count) {
    return std::to_string(count) + " device" + (count == 1 ? "" : "s");
  }

  static std::string dims(const intptr_t d[3]) {
    return std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
           std::to_string(d[2]);
  }

  static void pageAlign(uintptr_t &begin, uintptr_t &end) {
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    begin &= ~(page - 1);
    end = (end + page - 1) & ~(page - 1);
  }

  /// True for pageable host memory and memory this runtime registered;
  /// false for device and managed memory and for host memory registered
  /// by someone else, which need nothing.
  bool needsRegistration(uintptr_t address) {
    if (isOurs(address))
      return true;
    unsigned type = 0;
    CUresult result = drv.cuPointerGetAttribute(
        &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address);
    // Unknown to the driver: pageable host memory.
    return result != CUDA_SUCCESS;
  }

  /// The registered block that contains `address`, else the first one
  /// after it.
  std::map<uintptr_t, Registration>::iterator
  firstBlockEndingAfter(uintptr_t address) {
    auto it = registrations.upper_bound(address);
    if (it != registrations.begin() && std::prev(it)->second.end > address)
      --it;
    return it;
  }

  bool isOurs(uintptr_t address) {
    auto it = firstBlockEndingAfter(address);
    return it != registrations.end() && it->first <= address;
  }

  Status addBlock(uintptr_t begin, uintptr_t end) {
    void *ptr = reinterpret_cast<void *>(begin);
    size_t size = end - begin;
    CUresult result =
        drv.cuMemHostRegister(ptr, size, CU_MEMHOSTREGISTER_PORTABLE);
    if (result == CUDA_ERROR_INVALID_VALUE)
      // Read-only pages (constant globals) register only as such.
      result = drv.cuMemHostRegister(ptr, size,
                                     CU_MEMHOSTREGISTER_PORTABLE |
                                         CU_MEMHOSTREGISTER_READ_ONLY);
    bool external = result == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (!external) {
      char what[96];
      std::snprintf(what, sizeof(what), "%zu bytes at %p", size, ptr);
      KILN_TRY(check(result, "cuMemHostRegister", what));
      ++stats.hostRegisterCalls;
    }
    registrations[begin] = Registration{end, 1, external};
    return Status::success();
  }

  Driver drv;
  bool loaded = false;
  /// What the program set (rt::Runtime::configure) over the environment.
  kiln::rt::Options options;
  bool timing = false;    ///< Launches are timed with events.
  bool envTiming = false; ///< KILN_CUDA_TIMING: print the times.
  /// KILN_TIMEOUT: the longest wait for the device, in seconds (0: none).
  double timeoutSeconds = 0;
  /// The last kernel launched on each stream, for messages.
  std::unordered_map<CUstream, std::string> lastKernel;
  KilnTimingCallback timingCallback = nullptr;
  void *timingUser = nullptr;
  int selected = -1;
  std::map<int, CUcontext> contexts;
  std::unordered_map<CUfunction, FunctionInfo> functions;
};

thread_local std::unique_lock<std::mutex> *Runtime::heldLock = nullptr;

/// Locks the runtime for one call; enter() then makes the current device's
/// primary context current until the call returns.
class Scoped {
public:
  Scoped() : runtime(Runtime::get()), lock(runtime.mutex) {
    outer = Runtime::heldLock;
    Runtime::heldLock = &lock;
  }
  ~Scoped() {
    if (context) {
      CUcontext popped;
      runtime.driver().cuCtxPopCurrent(&popped);
    }
    Runtime::heldLock = outer;
  }
  Scoped(const Scoped &) = delete;
  Scoped &operator=(const Scoped &) = delete;

  /// Opens the driver, picks the device and pushes its context.
  Status enter() {
    KILN_TRY(runtime.load());
    KILN_ASSIGN_OR_RETURN(CUcontext ctx, runtime.context());
    KILN_TRY(runtime.check(runtime.driver().cuCtxPushCurrent(ctx),
                           "cuCtxPushCurrent"));
    context = ctx;
    return Status::success();
  }

  Runtime &runtime;
  /// The context made current; null before enter() succeeded.
  CUcontext context = nullptr;
  const Driver &drv() const { return runtime.driver(); }

private:
  std::unique_lock<std::mutex> lock;
  std::unique_lock<std::mutex> *outer;
};

/// The bytes a memref descriptor {allocated, aligned, offset, sizes[rank],
/// strides[rank]} can reach.
Expected<std::pair<uintptr_t, uintptr_t>>
memrefRange(int64_t rank, void *descriptor, int64_t elementSize) {
  if (!descriptor || rank < 0 || elementSize <= 0)
    return KILN_ERROR(InvalidArgument,
                      "mgpuMemHost(Un)RegisterMemRef: bad descriptor (rank " +
                          std::to_string(rank) + ", element size " +
                          std::to_string(elementSize) + ")");
  auto *words = static_cast<int64_t *>(descriptor);
  uintptr_t aligned = static_cast<uintptr_t>(words[1]);
  int64_t offset = words[2];
  const int64_t *sizes = words + 3;
  const int64_t *strides = words + 3 + rank;
  int64_t low = offset, high = offset;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0)
      return std::pair<uintptr_t, uintptr_t>(0, 0);
    int64_t reach = (sizes[i] - 1) * strides[i];
    (reach < 0 ? low : high) += reach;
  }
  return std::pair<uintptr_t, uintptr_t>(
      aligned + static_cast<uintptr_t>(low * elementSize),
      aligned + static_cast<uintptr_t>((high + 1) * elementSize));
}

//===-- The C++ interface -------------------------------------------------===//

/// kilnCudaRuntime(): every call locks the runtime as the entry points do
/// and returns its errors. The calls beyond kiln::rt::Runtime serve the
/// mgpu* and kiln* entry points that have no counterpart there.
class CUDARuntime final : public kiln::rt::Runtime {
public:
  static CUDARuntime &get() {
    static CUDARuntime *runtime = new CUDARuntime();
    return *runtime;
  }

  const char *backend() const override { return "cuda"; }

  Status configure(const kiln::rt::Options &options) override {
    Scoped s;
    return s.runtime.configure(options);
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
    ::Runtime &runtime = ::Runtime::get();
    std::lock_guard<std::mutex> lock(runtime.mutex);
    return runtime.listDevices(count);
  }

  Expected<std::string> deviceTarget() override {
    ::Runtime &runtime = ::Runtime::get();
    std::lock_guard<std::mutex> lock(runtime.mutex);
    return runtime.deviceChip();
  }

  Status deviceInfo(KilnCudaDeviceInfo &info) {
    ::Runtime &runtime = ::Runtime::get();
    std::lock_guard<std::mutex> lock(runtime.mutex);
    return runtime.deviceInfo(info);
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    return loadModuleAt(data, size, /*optLevel=*/-1);
  }

  /// A module whose PTX the driver compiles at `optLevel` (0 to 4; -1: the
  /// driver's default).
  Expected<void *> loadModuleAt(const void *data, size_t size, int optLevel) {
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.loadModule(data, size, optLevel);
  }

  Expected<void *> loadModuleJIT(void *data, int optLevel) override {
    return loadModuleAt(data, 0, optLevel);
  }

  Status unloadModule(void *module) override {
    Scoped s;
    KILN_TRY(s.enter());
    auto cuModule = static_cast<CUmodule>(module);
    KILN_TRY(s.runtime.checkModule(cuModule, "mgpuModuleUnload"));
    s.runtime.forgetModule(cuModule);
    return s.runtime.check(s.drv().cuModuleUnload(cuModule), "cuModuleUnload");
  }

  Expected<void *> getFunction(void *module, const char *name) override {
    Scoped s;
    KILN_TRY(s.enter());
    KILN_TRY(s.runtime.checkModule(static_cast<CUmodule>(module),
                                   "mgpuModuleGetFunction"));
    return s.runtime.getFunction(static_cast<CUmodule>(module), name);
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
    KILN_TRY(s.runtime.checkStream(static_cast<CUstream>(stream),
                                   "mgpuLaunchKernel"));
    return s.runtime.launch(static_cast<CUfunction>(function), grid, block,
                            cluster, smem, static_cast<CUstream>(stream),
                            params, paramsCount, extra);
  }

  // Compiled host code creates and destroys a stream around every launch;
  // destroyed streams are kept per context and handed out again, which is
  // what a hand-written loop that reuses one stream pays.
  Expected<void *> createStream() override {
    Scoped s;
    KILN_TRY(s.enter());
    std::vector<CUstream> &pool = s.runtime.streamPool[s.context];
    if (!pool.empty()) {
      CUstream stream = pool.back();
      pool.pop_back();
      s.runtime.liveStreams.insert(stream);
      return stream;
    }
    CUstream stream = nullptr;
    KILN_TRY(
        s.runtime.check(s.drv().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                        "cuStreamCreate"));
    s.runtime.liveStreams.insert(stream);
    return stream;
  }

  Status destroyStream(void *stream) override {
    if (!stream)
      return Status::success(); // The default stream.
    Scoped s;
    KILN_TRY(s.enter());
    KILN_TRY(s.runtime.checkStream(static_cast<CUstream>(stream),
                                   "mgpuStreamDestroy"));
    s.runtime.liveStreams.erase(static_cast<CUstream>(stream));
    std::vector<CUstream> &pool = s.runtime.streamPool[s.context];
    if (pool.size() < 16) {
      pool.push_back(static_cast<CUstream>(stream));
      return Status::success();
    }
    return s.runtime.check(
        s.drv().cuStreamDestroy(static_cast<CUstream>(stream)),
        "cuStreamDestroy");
  }

  Status synchronize(void *stream) override {
    Scoped s;
    KILN_TRY(s.enter());
    auto cuStream = static_cast<CUstream>(stream);
    KILN_TRY(s.runtime.checkStream(cuStream, "mgpuStreamSynchronize"));
    const Driver &drv = s.drv();
    return s.runtime.waitFor([&] { return drv.cuStreamQuery(cuStream); },
                             [&] { return drv.cuStreamSynchronize(cuStream); },
                             "cuStreamSynchronize", s.runtime.workOn(cuStream));
  }

  Status streamWaitEvent(void *stream, void *event) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.check(
        s.drv().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                  static_cast<CUevent>(event), 0),
        "cuStreamWaitEvent");
  }

  Expected<void *> createEvent() override {
    Scoped s;
    KILN_TRY(s.enter());
    CUevent event = nullptr;
    KILN_TRY(
        s.runtime.check(s.drv().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
                        "cuEventCreate"));
    return event;
  }

  Status destroyEvent(void *event) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.check(s.drv().cuEventDestroy(static_cast<CUevent>(event)),
                           "cuEventDestroy");
  }

  Status synchronizeEvent(void *event) override {
    Scoped s;
    KILN_TRY(s.enter());
    auto cuEvent = static_cast<CUevent>(event);
    const Driver &drv = s.drv();
    return s.runtime.waitFor([&] { return drv.cuEventQuery(cuEvent); },
                             [&] { return drv.cuEventSynchronize(cuEvent); },
                             "cuEventSynchronize", "the work before an event");
  }

  Status recordEvent(void *event, void *stream) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.check(s.drv().cuEventRecord(static_cast<CUevent>(event),
                                                 static_cast<CUstream>(stream)),
                           "cuEventRecord");
  }

  Expected<void *> allocate(uint64_t bytes, bool hostShared) override {
    if (bytes == 0)
      return nullptr;
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.allocate(bytes, hostShared);
  }

  Status free(void *pointer) override {
    if (!pointer)
      return Status::success();
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.check(
        s.drv().cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)), "cuMemFree");
  }

  Status copy(void *dst, const void *src, size_t bytes, void *stream) override {
    if (bytes == 0)
      return Status::success();
    Scoped s;
    KILN_TRY(s.enter());
    auto cuStream = static_cast<CUstream>(stream);
    return s.runtime.checkOn(
        cuStream,
        s.drv().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                              reinterpret_cast<CUdeviceptr>(src), bytes,
                              cuStream),
        "cuMemcpyAsync", std::to_string(bytes) + " bytes");
  }

  /// cuMemsetD32Async or cuMemsetD16Async of `count` words of
  /// `patternBytes` bytes.
  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    if (count == 0)
      return Status::success();
    Scoped s;
    KILN_TRY(s.enter());
    auto cuStream = static_cast<CUstream>(stream);
    auto to = reinterpret_cast<CUdeviceptr>(dst);
    if (patternBytes == 2)
      return s.runtime.checkOn(
          cuStream,
          s.drv().cuMemsetD16Async(to, static_cast<unsigned short>(value),
                                   count, cuStream),
          "cuMemsetD16Async");
    return s.runtime.checkOn(
        cuStream, s.drv().cuMemsetD32Async(to, value, count, cuStream),
        "cuMemsetD32Async");
  }

  Status hostRegister(void *ptr, uint64_t bytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
    KILN_TRY(s.runtime.registerRange(begin, begin + bytes));
    s.runtime.rawRanges[ptr].push_back({begin, begin + bytes});
    return Status::success();
  }

  Status hostUnregister(void *ptr) override {
    Scoped s;
    KILN_TRY(s.enter());
    auto it = s.runtime.rawRanges.find(ptr);
    if (it == s.runtime.rawRanges.end() || it->second.empty()) {
      char message[128];
      std::snprintf(message, sizeof(message),
                    "mgpuMemHostUnregister(%p): that pointer was not "
                    "registered with mgpuMemHostRegister",
                    ptr);
      return KILN_ERROR(InvalidArgument, message);
    }
    auto [begin, end] = it->second.back();
    it->second.pop_back();
    return s.runtime.unregisterRange(begin, end);
  }

  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    KILN_ASSIGN_OR_RETURN(auto range,
                          memrefRange(rank, descriptor, elementSizeBytes));
    return s.runtime.registerRange(range.first, range.second);
  }

  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    KILN_ASSIGN_OR_RETURN(auto range,
                          memrefRange(rank, descriptor, elementSizeBytes));
    return s.runtime.unregisterRange(range.first, range.second);
  }

  Status setDefaultDevice(int32_t device) override {
    ::Runtime &runtime = ::Runtime::get();
    std::lock_guard<std::mutex> lock(runtime.mutex);
    return runtime.setDevice(device);
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    ::Runtime &runtime = ::Runtime::get();
    std::lock_guard<std::mutex> lock(runtime.mutex);
    runtime.setTimingCallback(callback, user);
    return Status::success();
  }

  /// kilnCudaTimed.
  Expected<double> timed(void (*work)(void *user, void *stream), void *user) {
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.timed([&](CUstream stream) {
      work(user, stream);
      return Status::success();
    });
  }

  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    Scoped s;
    KILN_TRY(s.enter());
    return s.runtime.timed([&](CUstream stream) {
      return s.runtime.check(
          s.drv().cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(dst),
                                    reinterpret_cast<CUdeviceptr>(src), bytes,
                                    stream),
          "cuMemcpyDtoDAsync");
    });
  }

  KilnCudaStats stats() {
    ::Runtime &runtime = ::Runtime::get();
    std::lock_guard<std::mutex> lock(runtime.mutex);
    KilnCudaStats stats = runtime.stats;
    stats.registeredRanges = runtime.registrations.size();
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
