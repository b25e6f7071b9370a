//===- Runtimes.cpp - Opening Kiln's runtimes for kiln-bench --------------===//
//
// Both runtimes export the same mgpu* entry points, so kiln-bench opens each
// shared library with dlopen (RTLD_LOCAL) and drives it through its C++
// interface (kilnVulkanRuntime / kilnCudaRuntime), whose calls return
// errors: a benchmark that fails is reported, and the others go on. Before a
// runtime is used, a probe checks that its driver and a device are there;
// without them kiln-bench skips the backend (or, when it was asked for by
// name, stops with the reason).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <unistd.h>

namespace kiln {
namespace bench {

/// The directory of the running executable.
static std::string executableDir() {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0)
    return ".";
  path[n] = '\0';
  std::string s(path);
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? "." : s.substr(0, slash);
}

/// Is there a Vulkan loader with at least one device?
static bool probeVulkan(std::string &why) {
  void *loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!loader) {
    why = "cannot open the Vulkan loader libvulkan.so.1";
    return false;
  }
  auto create =
      reinterpret_cast<PFN_vkCreateInstance>(dlsym(loader, "vkCreateInstance"));
  auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(
      dlsym(loader, "vkEnumeratePhysicalDevices"));
  auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(
      dlsym(loader, "vkDestroyInstance"));
  bool ok = false;
  if (create && enumerate && destroy) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    if (create(&info, nullptr, &instance) == VK_SUCCESS) {
      uint32_t count = 0;
      enumerate(instance, &count, nullptr);
      ok = count > 0;
      destroy(instance, nullptr);
      if (!ok)
        why = "the Vulkan loader reports no device";
    } else {
      why = "vkCreateInstance failed (no Vulkan driver installed?)";
    }
  } else {
    why = "libvulkan.so.1 lacks the instance entry points";
  }
  dlclose(loader);
  return ok;
}

/// Is there a CUDA driver with at least one device?
static bool probeCUDA(std::string &why) {
  const char *path = std::getenv("KILN_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *driver = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    why = std::string("cannot open the CUDA driver ") + path;
    return false;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(driver, "cuDeviceGetCount"));
  int devices = 0;
  bool ok = false;
  if (!init || !count)
    why = std::string(path) + " lacks cuInit or cuDeviceGetCount";
  else if (int status = init(0))
    why = "cuInit failed with CUresult " + std::to_string(status);
  else if (count(&devices) != 0 || devices == 0)
    why = "the CUDA driver reports no device";
  else
    ok = true;
  // The runtime opens the driver again; keep this handle so the library
  // stays loaded once.
  (void)driver;
  return ok;
}

/// The CPU's last-level cache (the device, for CPU Vulkan drivers).
static uint64_t cpuLastLevelCache() {
  uint64_t best = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::ifstream sizeFile(dir + "/size");
    if (!sizeFile)
      break;
    std::string text;
    sizeFile >> text;
    uint64_t value = std::strtoull(text.c_str(), nullptr, 10);
    if (!text.empty() && text.back() == 'K')
      value <<= 10;
    else if (!text.empty() && text.back() == 'M')
      value <<= 20;
    best = std::max(best, value);
  }
  return best;
}

template <typename F>
static bool resolve(void *handle, F &fn, const char *name, std::string &why) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  if (!fn && why.empty())
    why = std::string("the runtime lacks ") + name;
  return fn != nullptr;
}

bool openRuntime(const std::string &backend, const std::string &device,
                 Runtime &rt, std::string &why) {
  rt.backend = backend;
  bool vulkan = backend == "vulkan";
  if (!(vulkan ? probeVulkan(why) : probeCUDA(why)))
    return false;
  std::string path =
      executableDir() + "/../lib/libkiln_" + backend + "_runtime.so";
  rt.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!rt.handle) {
    const char *error = dlerror();
    why = "cannot open " + path + ": " + (error ? error : "");
    return false;
  }
  void *h = rt.handle;
  kiln::rt::Runtime *(*api)() = nullptr;
  if (!resolve(h, api, vulkan ? "kilnVulkanRuntime" : "kilnCudaRuntime", why))
    return false;
  rt.api = api();
  if (!device.empty()) {
    kiln::rt::Options options;
    options.device = device;
    if (kiln::rt::Status error = rt.api->configure(options)) {
      why = error.message();
      return false;
    }
  }
  if (kiln::rt::Status error = rt.api->initialize()) {
    why = error.message();
    return false;
  }
  if (vulkan) {
    int (*info)(KilnVulkanDeviceInfo *) = nullptr;
    if (!resolve(h, info, "kilnVulkanGetDeviceInfo", why))
      return false;
    KilnVulkanDeviceInfo d;
    if (info(&d) != 0) {
      why = "kilnVulkanGetDeviceInfo failed";
      return false;
    }
    rt.deviceName = d.name;
    rt.deviceDriver = d.driver;
    rt.deviceDetails = std::string(d.type) + ", Vulkan " + d.apiVersion +
                       ", subgroup " + std::to_string(d.subgroupSize);
    rt.float64 = d.float64;
    rt.subgroupArithmetic = d.subgroupArithmetic;
    rt.isCPU = d.isCPU;
    rt.maxBufferBytes = d.maxStorageBufferRange;
    if (rt.isCPU)
      rt.lastLevelCacheBytes = cpuLastLevelCache();
  } else {
    resolve(h, rt.timed, "kilnCudaTimed", why);
    int (*info)(KilnCudaDeviceInfo *) = nullptr;
    if (!resolve(h, info, "kilnCudaGetDeviceInfo", why))
      return false;
    KilnCudaDeviceInfo d;
    if (info(&d) != 0) {
      why = "kilnCudaGetDeviceInfo failed";
      return false;
    }
    rt.deviceName = d.name;
    int v = d.driverVersion;
    rt.deviceDriver = "CUDA driver " + std::to_string(v / 1000) + "." +
                      std::to_string((v % 1000) / 10);
    rt.chip = "sm_" + std::to_string(d.major) + std::to_string(d.minor);
    rt.deviceDetails = rt.chip + ", " + std::to_string(d.multiprocessors) +
                       " multiprocessors at " +
                       std::to_string(d.clockKHz / 1000) + " MHz, memory " +
                       std::to_string(d.memoryBusWidth) + "-bit at " +
                       std::to_string(d.memoryClockKHz / 1000) + " MHz, L2 " +
                       std::to_string(d.l2Bytes >> 20) + " MiB, " +
                       std::to_string(d.totalBytes >> 20) + " MiB";
    rt.lastLevelCacheBytes = uint64_t(d.l2Bytes);
  }
  return why.empty();
}

} // namespace bench
} // namespace kiln
