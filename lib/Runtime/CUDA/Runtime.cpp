//===- Runtime.cpp - The mgpu* ABI and Kiln's entry points on CUDA --------===//

#include "kiln/Runtime/CUDARuntime.h"

#include "../DeviceChoice.h"
#include "../FillResource.h"
#include "../Timeout.h"
#include "Driver.h"
#include "kiln/Target/Container.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

using namespace kiln::cudart;

namespace {

[[noreturn]] void fatal(const std::string &message) {
  std::fprintf(stderr, "kiln-cuda: %s\n", message.c_str());
  std::fflush(stderr);
  std::exit(1);
}

/// The fatbin magic word; mgpuModuleLoad also tells cubin (ELF), PTX text
/// and Kiln's Vulkan container apart.
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;

struct Registration {
  uintptr_t end;
  unsigned refs;
  /// Registered by someone else (the program, cuMemHostAlloc): never
  /// unregistered here.
  bool external;
};

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

  /// Opens the driver and initializes it; fatal on failure.
  const Driver &driver() {
    if (!loaded) {
      std::string error;
      if (!drv.load(error))
        fatal(error);
      check(drv.cuInit(0), "cuInit");
      loaded = true;
      const char *timingEnv = std::getenv("KILN_CUDA_TIMING");
      envTiming = timingEnv && *timingEnv && std::strcmp(timingEnv, "0") != 0;
      timing = envTiming || timingCallback;
      if (std::string error; !kiln::rt::readTimeout(timeoutSeconds, error))
        fatal(error);
    }
    return drv;
  }

  /// What runs on `stream`, for messages: its last kernel.
  std::string workOn(CUstream stream) const {
    auto it = lastKernel.find(stream);
    return it == lastKernel.end() ? std::string("the work on a stream")
                                  : "kernel '" + it->second + "'";
  }

  /// Waits for a stream or event: `block` without KILN_TIMEOUT; with it,
  /// `query` polled until done, and past the limit the process stops at
  /// once (the device still runs the work) naming `what` and the limit.
  template <typename Query, typename Block>
  void waitFor(Query query, Block block, const char *call,
               const std::string &what) {
    std::unique_lock<std::mutex> *lock = heldLock;
    if (lock)
      lock->unlock();
    auto relock = [&] {
      if (lock)
        lock->lock();
    };
    if (timeoutSeconds <= 0) {
      CUresult result = block();
      relock();
      check(result, call);
      return;
    }
    auto start = std::chrono::steady_clock::now();
    auto pause = std::chrono::microseconds(20);
    while (true) {
      CUresult result = query();
      if (result != CUDA_ERROR_NOT_READY) {
        relock();
        check(result, call);
        return;
      }
      double waited = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      if (waited > timeoutSeconds) {
        relock();
        int device = currentDevice();
        kiln::rt::stopAfterTimeout("kiln-cuda", what, timeoutSeconds,
                                   std::to_string(device) + " (" +
                                       deviceName(device) + ")");
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
  }

  void check(CUresult result, const char *call, const std::string &what = "") {
    if (result == CUDA_SUCCESS)
      return;
    std::string message = std::string(call) + (what.empty() ? "" : " (" + what + ")") +
                          " failed: " + drv.describe(result);
    if (result == CUDA_ERROR_ILLEGAL_ADDRESS)
      message += "; a kernel touched memory it may not: an index out of "
                 "bounds, or host memory that is not registered with the "
                 "driver (Kiln's CUDA pipeline registers host memrefs passed "
                 "to launches; other programs need gpu.host_register)";
    fatal(message);
  }

  int deviceCount() {
    int count = 0;
    check(driver().cuDeviceGetCount(&count), "cuDeviceGetCount");
    return count;
  }

  std::string deviceName(int index) {
    CUdevice device;
    check(driver().cuDeviceGet(&device, index), "cuDeviceGet");
    char name[256] = {};
    check(drv.cuDeviceGetName(name, sizeof(name), device), "cuDeviceGetName");
    return name;
  }

  /// The device later calls use: mgpuSetDefaultDevice's, else
  /// KILN_CUDA_DEVICE's, else 0.
  int currentDevice() {
    if (selected >= 0)
      return selected;
    int count = deviceCount();
    if (count == 0)
      fatal("no CUDA device (the driver loaded, but reports none)");
    const char *env = std::getenv("KILN_CUDA_DEVICE");
    std::string want = env ? env : "";
    if (want.empty()) {
      selected = 0;
      return selected;
    }
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i)
      names.push_back(deviceName(i));
    size_t index = 0;
    switch (kiln::rt::matchDevice(want, names, index)) {
    case kiln::rt::DeviceMatch::Found:
      selected = static_cast<int>(index);
      return selected;
    case kiln::rt::DeviceMatch::IndexOutOfRange:
      fatal("KILN_CUDA_DEVICE=" + want + " is not a device index (" +
            devicesText(count) + ": 0.." + std::to_string(count - 1) + ")");
    case kiln::rt::DeviceMatch::NoSuchName:
      break;
    }
    fatal("no CUDA device matches '" + want +
          "'; devices:" + kiln::rt::listDevices(names));
  }

  void setTimingCallback(KilnTimingCallback callback, void *user) {
    timingCallback = callback;
    timingUser = user;
    if (loaded)
      timing = envTiming || callback;
  }

  void setDevice(int32_t device) {
    int count = deviceCount();
    if (device < 0 || device >= count)
      fatal("mgpuSetDefaultDevice(" + std::to_string(device) +
            "): no such device (" + devicesText(count) + ")");
    selected = device;
  }

  /// The primary context of the current device, retained on first use.
  CUcontext context() {
    int index = currentDevice();
    auto it = contexts.find(index);
    if (it != contexts.end())
      return it->second;
    CUdevice device;
    check(drv.cuDeviceGet(&device, index), "cuDeviceGet");
    CUcontext ctx = nullptr;
    check(drv.cuDevicePrimaryCtxRetain(&ctx, device),
          "cuDevicePrimaryCtxRetain");
    contexts[index] = ctx;
    return ctx;
  }

  //===-- Modules ---------------------------------------------------------===//

  void *loadModule(const void *data, size_t size, int optLevel) {
    if (!data)
      fatal("mgpuModuleLoad: null module data");
    uint32_t magic = 0;
    if (size >= 4)
      std::memcpy(&magic, data, 4);
    if (magic == kiln::container::kMagic)
      fatal("mgpuModuleLoad: this module is SPIR-V in Kiln's container, "
            "compiled for Vulkan; run it with kiln-vulkan-runner or link "
            "libkiln_vulkan_runtime");
    const char *bytes = static_cast<const char *>(data);
    bool binary = (size >= 4 && std::memcmp(bytes, "\x7f" "ELF", 4) == 0) ||
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
                       reinterpret_cast<void *>(static_cast<intptr_t>(
                           std::clamp(optLevel, 0, 4)))};
    unsigned count = optLevel >= 0 && !binary ? 5 : 4;
    CUmodule module = nullptr;
    CUresult result =
        drv.cuModuleLoadDataEx(&module, image, count, options, values);
    if (result != CUDA_SUCCESS) {
      std::string message = std::string("cuModuleLoadDataEx (") +
                            (binary ? magic == kFatbinMagic ? "fatbin" : "cubin"
                                    : "PTX") +
                            ", " + std::to_string(size) +
                            " bytes) failed: " + drv.describe(result);
      if (errorLog[0])
        message += "\nJIT error log:\n" + std::string(errorLog);
      fatal(message);
    }
    ++stats.moduleLoads;
    return module;
  }

  void *getFunction(CUmodule module, const char *name) {
    CUfunction function = nullptr;
    CUresult result = drv.cuModuleGetFunction(&function, module, name);
    if (result == CUDA_ERROR_NOT_FOUND) {
      std::string message = std::string("no kernel '") + name +
                            "' in the module";
      std::string names = kernelNames(module);
      if (!names.empty())
        message += " (kernels: " + names + ")";
      fatal(message);
    }
    check(result, "cuModuleGetFunction", name);
    if (!functions.count(function)) {
      int maxThreads = 0;
      check(drv.cuFuncGetAttribute(&maxThreads,
                                   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                   function),
            "cuFuncGetAttribute", name);
      functions[function] = FunctionInfo{name, maxThreads};
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
  };

  /// What mgpuModuleGetFunction learnt about `function` (functions from
  /// elsewhere are asked for here).
  const FunctionInfo &infoOf(CUfunction function) {
    auto it = functions.find(function);
    if (it != functions.end())
      return it->second;
    int maxThreads = 0;
    check(drv.cuFuncGetAttribute(&maxThreads,
                                 CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                 function),
          "cuFuncGetAttribute");
    return functions[function] = FunctionInfo{"<unknown>", maxThreads};
  }

  //===-- Launches --------------------------------------------------------===//

  void launch(CUfunction function, const intptr_t grid[3],
              const intptr_t block[3], const intptr_t *cluster, int32_t smem,
              CUstream stream, void **params, void **extra) {
    const FunctionInfo &info = infoOf(function);
    const std::string &name = info.name;
    lastKernel[stream] = name;
    for (int i = 0; i < 3; ++i) {
      if (grid[i] < 1 || grid[i] > 0x7fffffff || block[i] < 1 ||
          block[i] > 0x7fffffff)
        fatal("kernel '" + name + "' launched with grid (" + dims(grid) +
              ") and block (" + dims(block) +
              "): every dimension must be at least 1 and fit in 32 bits");
    }
    int maxThreads = info.maxThreads;
    intptr_t threads = block[0] * block[1] * block[2];
    if (maxThreads > 0 && threads > maxThreads)
      fatal("kernel '" + name + "' launched with block (" + dims(block) +
            ") = " + std::to_string(threads) + " threads; it can run at most " +
            std::to_string(maxThreads) + " per block on device " +
            std::to_string(currentDevice()) + " (" +
            deviceName(currentDevice()) + ")");
    CUevent start = nullptr, stop = nullptr;
    auto hostStart = std::chrono::steady_clock::now();
    if (timing) {
      check(drv.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
      check(drv.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
      check(drv.cuEventRecord(start, stream), "cuEventRecord");
    }
    if (cluster) {
      if (!drv.cuLaunchKernelEx)
        fatal("kernel '" + name + "' is a cluster launch, which needs "
              "cuLaunchKernelEx (CUDA 12 driver)");
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
      check(drv.cuLaunchKernelEx(&config, function, params, extra),
            "cuLaunchKernelEx", name);
    } else {
      check(drv.cuLaunchKernel(function, static_cast<unsigned>(grid[0]),
                               static_cast<unsigned>(grid[1]),
                               static_cast<unsigned>(grid[2]),
                               static_cast<unsigned>(block[0]),
                               static_cast<unsigned>(block[1]),
                               static_cast<unsigned>(block[2]),
                               static_cast<unsigned>(smem), stream, params,
                               extra),
            "cuLaunchKernel", name);
    }
    ++stats.launches;
    if (timing) {
      check(drv.cuEventRecord(stop, stream), "cuEventRecord");
      check(drv.cuEventSynchronize(stop), "cuEventSynchronize", name);
      double hostUs = std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - hostStart)
                          .count();
      float ms = 0;
      check(drv.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
      if (envTiming)
        std::fprintf(stderr,
                     "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f\n",
                     name.c_str(), ms * 1000.0, hostUs);
      if (timingCallback)
        timingCallback(timingUser, name.c_str(), ms * 1000.0);
      drv.cuEventDestroy(start);
      drv.cuEventDestroy(stop);
    }
  }

  //===-- Host registration -----------------------------------------------===//

  void registerRange(uintptr_t begin, uintptr_t end) {
    if (begin >= end || !needsRegistration(begin))
      return;
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
      uintptr_t gapEnd = it == registrations.end() ? end
                                                    : std::min(end, it->first);
      addBlock(at, gapEnd);
      at = gapEnd;
    }
  }

  void unregisterRange(uintptr_t begin, uintptr_t end) {
    if (begin >= end)
      return;
    pageAlign(begin, end);
    auto it = firstBlockEndingAfter(begin);
    while (it != registrations.end() && it->first < end) {
      if (--it->second.refs == 0) {
        if (!it->second.external) {
          check(drv.cuMemHostUnregister(reinterpret_cast<void *>(it->first)),
                "cuMemHostUnregister");
          ++stats.hostUnregisterCalls;
        }
        it = registrations.erase(it);
      } else {
        ++it;
      }
    }
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

  void addBlock(uintptr_t begin, uintptr_t end) {
    void *ptr = reinterpret_cast<void *>(begin);
    size_t size = end - begin;
    CUresult result =
        drv.cuMemHostRegister(ptr, size, CU_MEMHOSTREGISTER_PORTABLE);
    if (result == CUDA_ERROR_INVALID_VALUE)
      // Read-only pages (constant globals) register only as such.
      result = drv.cuMemHostRegister(
          ptr, size, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_READ_ONLY);
    bool external = result == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (!external) {
      char what[96];
      std::snprintf(what, sizeof(what), "%zu bytes at %p", size, ptr);
      check(result, "cuMemHostRegister", what);
      ++stats.hostRegisterCalls;
    }
    registrations[begin] = Registration{end, 1, external};
  }

  Driver drv;
  bool loaded = false;
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

/// Locks the runtime and makes the current device's primary context
/// current for one entry point.
class Scoped {
public:
  Scoped() : runtime(Runtime::get()), lock(runtime.mutex) {
    outer = Runtime::heldLock;
    Runtime::heldLock = &lock;
    const Driver &drv = runtime.driver();
    runtime.check(drv.cuCtxPushCurrent(runtime.context()), "cuCtxPushCurrent");
  }
  ~Scoped() {
    CUcontext popped;
    runtime.driver().cuCtxPopCurrent(&popped);
    Runtime::heldLock = outer;
  }
  Runtime &runtime;
  const Driver &drv() { return runtime.driver(); }

private:
  std::unique_lock<std::mutex> lock;
  std::unique_lock<std::mutex> *outer;
};

thread_local std::unique_lock<std::mutex> *Runtime::heldLock = nullptr;

/// The bytes a memref descriptor {allocated, aligned, offset, sizes[rank],
/// strides[rank]} can reach.
std::pair<uintptr_t, uintptr_t> memrefRange(int64_t rank, void *descriptor,
                                            int64_t elementSize) {
  if (!descriptor || rank < 0 || elementSize <= 0)
    fatal("mgpuMemHost(Un)RegisterMemRef: bad descriptor (rank " +
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
      return {0, 0};
    int64_t reach = (sizes[i] - 1) * strides[i];
    (reach < 0 ? low : high) += reach;
  }
  return {aligned + static_cast<uintptr_t>(low * elementSize),
          aligned + static_cast<uintptr_t>((high + 1) * elementSize)};
}

} // namespace

extern "C" {

void *mgpuModuleLoad(const void *data, size_t gpuBlobSize) {
  Scoped s;
  return s.runtime.loadModule(data, gpuBlobSize, /*optLevel=*/-1);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  Scoped s;
  return s.runtime.loadModule(data, 0, optLevel);
}

void mgpuModuleUnload(void *module) {
  Scoped s;
  s.runtime.check(s.drv().cuModuleUnload(static_cast<CUmodule>(module)),
                  "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Scoped s;
  return s.runtime.getFunction(static_cast<CUmodule>(module), name);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t) {
  Scoped s;
  intptr_t grid[3] = {gridX, gridY, gridZ};
  intptr_t block[3] = {blockX, blockY, blockZ};
  s.runtime.launch(static_cast<CUfunction>(function), grid, block, nullptr,
                   smem, static_cast<CUstream>(stream), params, extra);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t) {
  Scoped s;
  intptr_t cluster[3] = {clusterX, clusterY, clusterZ};
  intptr_t grid[3] = {gridX, gridY, gridZ};
  intptr_t block[3] = {blockX, blockY, blockZ};
  s.runtime.launch(static_cast<CUfunction>(function), grid, block, cluster,
                   smem, static_cast<CUstream>(stream), params, extra);
}

// Compiled host code creates and destroys a stream around every launch;
// destroyed streams are kept per context and handed out again, which is
// what a hand-written loop that reuses one stream pays.
void *mgpuStreamCreate() {
  Scoped s;
  std::vector<CUstream> &pool = s.runtime.streamPool[s.runtime.context()];
  if (!pool.empty()) {
    CUstream stream = pool.back();
    pool.pop_back();
    return stream;
  }
  CUstream stream = nullptr;
  s.runtime.check(s.drv().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                  "cuStreamCreate");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  Scoped s;
  std::vector<CUstream> &pool = s.runtime.streamPool[s.runtime.context()];
  if (pool.size() < 16) {
    pool.push_back(static_cast<CUstream>(stream));
    return;
  }
  s.runtime.check(s.drv().cuStreamDestroy(static_cast<CUstream>(stream)),
                  "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  Scoped s;
  auto cuStream = static_cast<CUstream>(stream);
  std::string what = s.runtime.workOn(cuStream);
  s.runtime.waitFor([&] { return s.drv().cuStreamQuery(cuStream); },
                    [&] { return s.drv().cuStreamSynchronize(cuStream); },
                    "cuStreamSynchronize", what);
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  Scoped s;
  s.runtime.check(s.drv().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                            static_cast<CUevent>(event), 0),
                  "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  Scoped s;
  CUevent event = nullptr;
  s.runtime.check(s.drv().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
                  "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  Scoped s;
  s.runtime.check(s.drv().cuEventDestroy(static_cast<CUevent>(event)),
                  "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  Scoped s;
  auto cuEvent = static_cast<CUevent>(event);
  s.runtime.waitFor([&] { return s.drv().cuEventQuery(cuEvent); },
                    [&] { return s.drv().cuEventSynchronize(cuEvent); },
                    "cuEventSynchronize", "the work before an event");
}

void mgpuEventRecord(void *event, void *stream) {
  Scoped s;
  s.runtime.check(s.drv().cuEventRecord(static_cast<CUevent>(event),
                                        static_cast<CUstream>(stream)),
                  "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *, bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  Scoped s;
  CUdeviceptr ptr = 0;
  std::string what = std::to_string(sizeBytes) + " bytes";
  if (isHostShared)
    s.runtime.check(s.drv().cuMemAllocManaged(&ptr, sizeBytes,
                                              CU_MEM_ATTACH_GLOBAL),
                    "cuMemAllocManaged", what);
  else
    s.runtime.check(s.drv().cuMemAlloc(&ptr, sizeBytes), "cuMemAlloc", what);
  ++s.runtime.stats.allocations;
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void *) {
  if (!ptr)
    return;
  Scoped s;
  s.runtime.check(s.drv().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)),
                  "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes == 0)
    return;
  Scoped s;
  s.runtime.check(s.drv().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                        reinterpret_cast<CUdeviceptr>(src),
                                        sizeBytes,
                                        static_cast<CUstream>(stream)),
                  "cuMemcpyAsync", std::to_string(sizeBytes) + " bytes");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  Scoped s;
  s.runtime.check(s.drv().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                           value, count,
                                           static_cast<CUstream>(stream)),
                  "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream) {
  if (count == 0)
    return;
  Scoped s;
  s.runtime.check(s.drv().cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                           value, count,
                                           static_cast<CUstream>(stream)),
                  "cuMemsetD16Async");
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  Scoped s;
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  s.runtime.registerRange(begin, begin + sizeBytes);
  s.runtime.rawRanges[ptr].push_back({begin, begin + sizeBytes});
}

void mgpuMemHostUnregister(void *ptr) {
  Scoped s;
  auto it = s.runtime.rawRanges.find(ptr);
  if (it == s.runtime.rawRanges.end() || it->second.empty()) {
    char message[128];
    std::snprintf(message, sizeof(message),
                  "mgpuMemHostUnregister(%p): that pointer was not registered "
                  "with mgpuMemHostRegister",
                  ptr);
    fatal(message);
  }
  auto [begin, end] = it->second.back();
  it->second.pop_back();
  s.runtime.unregisterRange(begin, end);
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  Scoped s;
  auto [begin, end] = memrefRange(rank, descriptor, elementSizeBytes);
  s.runtime.registerRange(begin, end);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  Scoped s;
  auto [begin, end] = memrefRange(rank, descriptor, elementSizeBytes);
  s.runtime.unregisterRange(begin, end);
}

void mgpuSetDefaultDevice(int32_t device) {
  Runtime &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  runtime.setDevice(device);
}

int kilnCudaListDevices() {
  Runtime &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  const Driver &drv = runtime.driver();
  int version = 0;
  runtime.check(drv.cuDriverGetVersion(&version), "cuDriverGetVersion");
  int count = runtime.deviceCount();
  std::printf("CUDA driver %d.%d, %d device%s\n", version / 1000,
              (version % 1000) / 10, count, count == 1 ? "" : "s");
  for (int i = 0; i < count; ++i) {
    CUdevice device;
    runtime.check(drv.cuDeviceGet(&device, i), "cuDeviceGet");
    auto attr = [&](int attribute) {
      int value = 0;
      runtime.check(drv.cuDeviceGetAttribute(&value, attribute, device),
                    "cuDeviceGetAttribute");
      return value;
    };
    size_t memory = 0;
    runtime.check(drv.cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem");
    std::printf("%d: %s\n", i, runtime.deviceName(i).c_str());
    std::printf("   chip sm_%d%d, %zu MiB, %d multiprocessors, %d MHz\n",
                attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                memory >> 20, attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
    std::printf("   memory %d-bit at %d MHz, L2 %d KiB\n",
                attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
                attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000,
                attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) >> 10);
    std::printf("   max threads per block %d, max block x %d, max grid x %d, "
                "shared memory per block %d bytes\n",
                attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  }
  if (count == 0) {
    std::fprintf(stderr, "kiln-cuda: no CUDA device\n");
    return 1;
  }
  return 0;
}

const char *kilnCudaDeviceChip() {
  Runtime &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  const Driver &drv = runtime.driver();
  int index = runtime.currentDevice();
  CUdevice device;
  runtime.check(drv.cuDeviceGet(&device, index), "cuDeviceGet");
  int major = 0, minor = 0;
  runtime.check(drv.cuDeviceGetAttribute(
                    &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                    device),
                "cuDeviceGetAttribute");
  runtime.check(drv.cuDeviceGetAttribute(
                    &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                    device),
                "cuDeviceGetAttribute");
  static std::string chip;
  chip = "sm_" + std::to_string(major) + std::to_string(minor);
  return chip.c_str();
}

int kilnCudaGetDeviceInfo(KilnCudaDeviceInfo *info) {
  Runtime &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  const Driver &drv = runtime.driver();
  *info = KilnCudaDeviceInfo{};
  info->ordinal = runtime.currentDevice();
  CUdevice device;
  runtime.check(drv.cuDeviceGet(&device, info->ordinal), "cuDeviceGet");
  std::snprintf(info->name, sizeof(info->name), "%s",
                runtime.deviceName(info->ordinal).c_str());
  auto attr = [&](int attribute) {
    int value = 0;
    runtime.check(drv.cuDeviceGetAttribute(&value, attribute, device),
                  "cuDeviceGetAttribute");
    return value;
  };
  info->major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info->minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info->multiprocessors = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info->clockKHz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  info->memoryClockKHz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  info->memoryBusWidth = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  info->l2Bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  size_t memory = 0;
  runtime.check(drv.cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem");
  info->totalBytes = memory;
  runtime.check(drv.cuDriverGetVersion(&info->driverVersion),
                "cuDriverGetVersion");
  return 0;
}

void kilnCudaSetTimingCallback(KilnTimingCallback callback, void *user) {
  Runtime &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  runtime.setTimingCallback(callback, user);
}

double kilnCudaTimed(void (*work)(void *user, void *stream), void *user) {
  Scoped s;
  const Driver &drv = s.runtime.driver();
  CUstream stream = nullptr;
  CUevent start = nullptr, stop = nullptr;
  s.runtime.check(drv.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                  "cuStreamCreate");
  s.runtime.check(drv.cuEventCreate(&start, CU_EVENT_DEFAULT),
                  "cuEventCreate");
  s.runtime.check(drv.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  s.runtime.check(drv.cuEventRecord(start, stream), "cuEventRecord");
  work(user, stream);
  s.runtime.check(drv.cuEventRecord(stop, stream), "cuEventRecord");
  s.runtime.check(drv.cuEventSynchronize(stop), "cuEventSynchronize");
  float ms = 0;
  s.runtime.check(drv.cuEventElapsedTime(&ms, start, stop),
                  "cuEventElapsedTime");
  drv.cuEventDestroy(start);
  drv.cuEventDestroy(stop);
  drv.cuStreamDestroy(stream);
  return ms * 1000.0;
}

namespace {
struct DeviceCopy {
  CUdeviceptr dst, src;
  size_t size;
};
} // namespace

double kilnCudaDeviceCopy(void *dst, const void *src, size_t sizeBytes) {
  DeviceCopy copy{reinterpret_cast<CUdeviceptr>(dst),
                  reinterpret_cast<CUdeviceptr>(src), sizeBytes};
  return kilnCudaTimed(
      [](void *user, void *stream) {
        auto *c = static_cast<DeviceCopy *>(user);
        Runtime &runtime = Runtime::get();
        runtime.check(runtime.driver().cuMemcpyDtoDAsync(
                          c->dst, c->src, c->size,
                          static_cast<CUstream>(stream)),
                      "cuMemcpyDtoDAsync");
      },
      &copy);
}

void kilnCudaGetStats(KilnCudaStats *stats) {
  Runtime &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  *stats = runtime.stats;
  stats->registeredRanges = runtime.registrations.size();
}

} // extern "C"

// Upstream's fill helpers, so that programs written for mlir-runner's Vulkan
// path also run on CUDA (host memory, registered around launches as any
// other host memref).
KILN_DEFINE_FILL_RESOURCE_HELPERS(KILN_CUDA_EXPORT)
