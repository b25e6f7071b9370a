//===- Runtimes.cpp - Opening Kiln's runtimes for kiln-bench --------------===//
//
// The runtimes export the same mgpu* entry points, so kiln-bench opens each
// shared library with dlopen (RTLD_LOCAL) and drives it through its C++
// interface (kilnVulkanRuntime / kilnCudaRuntime / kilnSpirvCpuRuntime),
// whose calls return errors: a benchmark that fails is reported, and the
// others go on. Before a GPU runtime is used, a probe checks that its
// driver and a device are there; without them kiln-bench skips the backend
// (or, when it was asked for by name, stops with the reason). The device
// list (--device) is the runtime's option, set before its first use; the
// runtime opens every listed device up front, so a bad entry is the
// backend's error.
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

/// Finishes opening the spirv-cpu runtime: its device (the host CPU, as the
/// runtime describes it), then the benchmark kernels' host code, whose
/// constructors register them with the runtime (already open, so the
/// library's dependency on it is that copy).
static bool openSpirvCpu(Runtime &rt, std::string &why) {
  kiln::rt::Expected<std::string> text = rt.api->describeDevices();
  if (!text) {
    why = text.error().message();
    return false;
  }
  // The description's first line is "0: MODEL"; the fields follow, one
  // "  NAME: VALUE" line each.
  std::string first = text->substr(0, text->find('\n'));
  size_t colon = first.find(": ");
  rt.deviceName = colon == std::string::npos ? first : first.substr(colon + 2);
  auto field = [&](const std::string &name) -> std::string {
    size_t at = text->find("  " + name + ": ");
    if (at == std::string::npos)
      return "?";
    at += name.size() + 4;
    return text->substr(at, text->find_first_of(" \n", at) - at);
  };
  rt.deviceDetails = "CPU, spirv-cpu, " + field("worker threads") +
                     " worker threads, subgroup " + field("subgroup size");
  rt.deviceDriver = "Kiln's spirv-cpu runtime";
  rt.isCPU = true;
  rt.lastLevelCacheBytes = cpuLastLevelCache();
  std::string kernels =
      executableDir() + "/../lib/libkiln_bench_spirv_cpu_kernels.so";
  if (!dlopen(kernels.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const char *error = dlerror();
    why = "cannot open " + kernels + ": " + (error ? error : "");
    return false;
  }
  return true;
}

bool openRuntime(const std::string &backend, const std::string &device,
                 Runtime &rt, std::string &why) {
  rt.backend = backend;
  bool vulkan = backend == "vulkan", cpu = backend == "spirv-cpu";
  // spirv-cpu's device is the host CPU: nothing to probe.
  if (!cpu && !(vulkan ? probeVulkan(why) : probeCUDA(why)))
    return false;
  std::string library = cpu ? "spirv_cpu" : backend;
  std::string path =
      executableDir() + "/../lib/libkiln_" + library + "_runtime.so";
  rt.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!rt.handle) {
    const char *error = dlerror();
    why = "cannot open " + path + ": " + (error ? error : "");
    return false;
  }
  void *h = rt.handle;
  kiln::rt::Runtime *(*api)() = nullptr;
  const char *accessor = vulkan ? "kilnVulkanRuntime"
                         : cpu  ? "kilnSpirvCpuRuntime"
                                : "kilnCudaRuntime";
  if (!resolve(h, api, accessor, why))
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
  rt.devices = rt.api->deviceCount();
  if (cpu)
    return openSpirvCpu(rt, why);
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
    else
      rt.memoryBytes = d.deviceLocalBytes;
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
    rt.memoryBytes = uint64_t(d.totalBytes);
  }
  return why.empty();
}

} // namespace bench
} // namespace kiln
