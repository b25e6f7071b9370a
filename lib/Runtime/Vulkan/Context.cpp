//===- Context.cpp - Instance, device, modules, launches, memory ----------===//
//
// Everything is created once and reused: instance, device, queue, shader
// modules, pipelines (through one VkPipelineCache), layouts, command buffers,
// fences and descriptor pools (recycled with their submissions). A launch
// records one command buffer and submits it; the stream's synchronize waits
// for it and finishes host-memory bookkeeping.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "ValidateSPIRV.h"
#include "../Timeout.h"
#include "../DeviceChoice.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <array>
#include <map>
#include <unistd.h>

using namespace kiln;
using namespace kiln::vkrt;
using container::ArgKind;
using container::ScalarType;

void kiln::vkrt::fatal(const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "kiln-vulkan: %s\n", message.c_str());
  std::fflush(stderr);
  std::exit(1);
}

void kiln::vkrt::check(VkResult result, const char *call) {
  if (result == VK_SUCCESS)
    return;
  if (result == VK_ERROR_DEVICE_LOST)
    fatal(std::string(call) + " failed: VK_ERROR_DEVICE_LOST (the device was "
                              "lost; a kernel may have faulted or run too long)");
  fatal(std::string(call) + " failed: " + vk::resultName(result));
}

static bool envFlag(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0 && std::strcmp(v, "false") != 0;
}

static uint64_t alignDown(uint64_t v, uint64_t a) { return v / a * a; }
static uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/// "'a', 'b'": names for a message.
static std::string quotedList(const std::vector<std::string> &names) {
  std::string list;
  for (const std::string &name : names)
    list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

Context &Context::get() {
  // Never destroyed by static destructors: the JIT's module destructors may
  // still call in during exit. teardown() runs from an exit handler instead,
  // registered once the instance exists (initInstance).
  static Context *context = new Context();
  return *context;
}

//===----------------------------------------------------------------------===//
// Instance and device
//===----------------------------------------------------------------------===//

/// The text of a debug printf message: the layer puts its own header
/// ("Validation Information: [ UNASSIGNED-DEBUG-PRINTF ] ... | MessageID =
/// 0x... | ") before what the kernel printed.
static const char *debugPrintfText(const char *message) {
  const char *id = std::strstr(message, "MessageID = ");
  if (!id)
    return message;
  const char *bar = std::strstr(id, "| ");
  return bar ? bar + 2 : message;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL
onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                    VkDebugUtilsMessageTypeFlagsEXT,
                    const VkDebugUtilsMessengerCallbackDataEXT *data,
                    void *user) {
  auto *context = static_cast<Context *>(user);
  const char *message = data && data->pMessage ? data->pMessage : "";
  bool fromPrintf = context->printfOn && data && data->pMessageIdName &&
                    std::strstr(data->pMessageIdName, "DEBUG-PRINTF");
  if (fromPrintf && severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    // What a kernel printed, on stdout as CUDA's vprintf output is.
    std::fputs(debugPrintfText(message), stdout);
    std::fflush(stdout);
    return VK_FALSE;
  }
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
    return VK_FALSE;
  // Lost output fails the run as a validation message does.
  ++context->validationMessages;
  std::fflush(stdout);
  if (fromPrintf)
    std::fprintf(stderr, "kiln-vulkan: debug printf: %s (%s)\n",
                 debugPrintfText(message),
                 context->printfBufferBytes
                     ? ("the output buffer holds " +
                        std::to_string(context->printfBufferBytes) +
                        " bytes per launch; raise it with "
                        "KILN_VULKAN_PRINTF_BUFFER")
                           .c_str()
                     : "VK_LAYER_SETTINGS_PATH's settings file sets the "
                       "layer's printf_buffer_size");
  else
    std::fprintf(stderr, "kiln-vulkan: validation %s: %s\n",
                 severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                     ? "error"
                     : "warning",
                 *message ? message : "(no message)");
  return VK_FALSE;
}

std::string Context::writePrintfSettings() {
  if (const char *v = std::getenv("KILN_VULKAN_PRINTF_BUFFER")) {
    char *end = nullptr;
    unsigned long long bytes = std::strtoull(v, &end, 10);
    if (!*v || *end || bytes < 1024 || bytes > (1ull << 31))
      fatal(std::string("KILN_VULKAN_PRINTF_BUFFER='") + v +
            "' is not a size in bytes from 1024 to 2147483648");
    printfBufferBytes = bytes;
  }
  // The validation layer takes the size of its printf buffer (1024 bytes by
  // default: 28 lines of one number) from a settings file only; a user's
  // own VK_LAYER_SETTINGS_PATH wins.
  if (std::getenv("VK_LAYER_SETTINGS_PATH")) {
    printfBufferBytes = 0; // The user's settings file says.
    return "";
  }
  const char *tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/kiln-XXXXXX";
  auto keepDefault = [&](const std::string &why) {
    std::fprintf(stderr,
                 "kiln-vulkan: %s; the validation layer's printf buffer "
                 "keeps its default of 1024 bytes\n",
                 why.c_str());
    printfBufferBytes = 1024;
    return std::string();
  };
  if (!mkdtemp(dir.data()))
    return keepDefault("cannot create a directory under " +
                       dir.substr(0, dir.rfind('/')) + ": " +
                       std::strerror(errno));
  std::string path = dir + "/vk_layer_settings.txt";
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    rmdir(dir.c_str());
    return keepDefault("cannot write " + path + ": " + std::strerror(errno));
  }
  std::fprintf(f, "khronos_validation.printf_buffer_size = %llu\n",
               static_cast<unsigned long long>(printfBufferBytes));
  std::fclose(f);
  setenv("VK_LAYER_SETTINGS_PATH", dir.c_str(), 1);
  return dir;
}

void Context::initInstance() {
  if (instance)
    return;
  if (torndown)
    fatal("the Vulkan runtime was used after it shut down");
  std::string error;
  if (!vk.openLoader(error))
    fatal(error);
  validation = envFlag("KILN_VULKAN_VALIDATION");
  envTiming = envFlag("KILN_VULKAN_TIMING");
  if (std::string error; !kiln::rt::readTimeout(timeoutSeconds, error))
    fatal(error);
  if (const char *v = std::getenv("KILN_VULKAN_TIMING"))
    upstreamTiming = std::strcmp(v, "upstream") == 0;

  uint32_t apiVersion = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion)
    vk.vkEnumerateInstanceVersion(&apiVersion);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "kiln";
  app.pEngineName = "kiln";
  app.apiVersion = std::min<uint32_t>(apiVersion, VK_API_VERSION_1_3);
  if (app.apiVersion < VK_API_VERSION_1_1)
    fatal("the Vulkan loader supports only Vulkan 1.0; Kiln needs 1.1");

  const char *printfEnv = std::getenv("KILN_VULKAN_PRINTF");
  printfOff = printfEnv && *printfEnv && !envFlag("KILN_VULKAN_PRINTF");
  printfOn = !printfOff && (printfRequested || envFlag("KILN_VULKAN_PRINTF"));
  validateSPIRV = !std::getenv("KILN_VULKAN_VALIDATE_SPIRV") ||
                  envFlag("KILN_VULKAN_VALIDATE_SPIRV");

  std::vector<const char *> layers, extensions;
  if (validation || printfOn) {
    uint32_t n = 0;
    vk.vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> available(n);
    vk.vkEnumerateInstanceLayerProperties(&n, available.data());
    bool found = std::any_of(available.begin(), available.end(), [](auto &l) {
      return std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    });
    if (!found)
      fatal(std::string(validation ? "validation was requested"
                                   : "a kernel prints (gpu.printf), which on "
                                     "Vulkan runs through the validation "
                                     "layer's debug printf,") +
            " but the layer VK_LAYER_KHRONOS_validation is not installed (on "
            "Debian: vulkan-validationlayers)" +
            (validation ? "" : "; KILN_VULKAN_PRINTF=0 runs it silently"));
    layers.push_back("VK_LAYER_KHRONOS_validation");
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  // Debug printf, with the layer's other checks off unless validation was
  // asked for too.
  VkValidationFeatureEnableEXT printfEnables[] = {
      VK_VALIDATION_FEATURE_ENABLE_DEBUG_PRINTF_EXT};
  VkValidationFeatureDisableEXT checksOff[] = {
      VK_VALIDATION_FEATURE_DISABLE_CORE_CHECKS_EXT,
      VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT,
      VK_VALIDATION_FEATURE_DISABLE_OBJECT_LIFETIMES_EXT,
      VK_VALIDATION_FEATURE_DISABLE_API_PARAMETERS_EXT};
  VkValidationFeaturesEXT features{
      VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  if (printfOn) {
    extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = printfEnables;
    if (!validation) {
      features.disabledValidationFeatureCount = std::size(checksOff);
      features.pDisabledValidationFeatures = checksOff;
    }
  }
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  std::string settingsDir;
  if (printfOn) {
    info.pNext = &features;
    settingsDir = writePrintfSettings();
  }
  info.pApplicationInfo = &app;
  info.enabledLayerCount = layers.size();
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vk.vkCreateInstance(&info, nullptr, &instance);
  if (!settingsDir.empty()) {
    unsetenv("VK_LAYER_SETTINGS_PATH");
    std::remove((settingsDir + "/vk_layer_settings.txt").c_str());
    rmdir(settingsDir.c_str());
  }
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    fatal("vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan "
          "driver is installed; on Debian, mesa-vulkan-drivers provides the "
          "lavapipe CPU driver)");
  check(result, "vkCreateInstance");
  ++stats.instances;
  // Exit handlers run in reverse order of registration, and the driver and
  // the layers the loader has just opened registered their static
  // destructors: teardown must come before those (the validation layer's
  // debug printf crashes lavapipe's vkDestroyDevice otherwise).
  std::atexit([] { Context::get().teardown(); });
  if (!vk.loadInstance(instance, error))
    fatal(error);
  if (validation || printfOn)
    createMessenger();
}

void Context::createMessenger() {
  if (!vk.vkCreateDebugUtilsMessengerEXT)
    fatal("the validation layer was loaded but VK_EXT_debug_utils is "
          "unavailable");
  VkDebugUtilsMessengerCreateInfoEXT info{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  if (printfOn) // The layer reports what kernels print as information.
    info.messageSeverity |= VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = onValidationMessage;
  info.pUserData = this;
  check(vk.vkCreateDebugUtilsMessengerEXT(instance, &info, nullptr,
                                          &messenger),
        "vkCreateDebugUtilsMessengerEXT");
}

void Context::checkValidation() {
  if (unsigned n = validationMessages.exchange(0)) {
    // Reported here, not again at exit.
    fatal("the Khronos validation layer reported " + std::to_string(n) +
          " message(s)");
  }
}

std::vector<VkPhysicalDevice> Context::physicalDevices() {
  initInstance();
  uint32_t n = 0;
  check(vk.vkEnumeratePhysicalDevices(instance, &n, nullptr),
        "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(n);
  check(vk.vkEnumeratePhysicalDevices(instance, &n, devices.data()),
        "vkEnumeratePhysicalDevices");
  devices.resize(n);
  return devices;
}

void Context::setDefaultDevice(int index) {
  if (device && index != requestedDevice)
    std::fprintf(stderr,
                 "kiln-vulkan: mgpuSetDefaultDevice(%d) after the device was "
                 "created; keeping the current device\n",
                 index);
  requestedDevice = index;
}

VkPhysicalDevice Context::choosePhysicalDevice() {
  std::vector<VkPhysicalDevice> devices = physicalDevices();
  if (devices.empty())
    fatal("no Vulkan device found (vkEnumeratePhysicalDevices returned none)");
  std::vector<VkPhysicalDeviceProperties> properties(devices.size());
  std::vector<std::string> names;
  for (size_t i = 0; i < devices.size(); ++i) {
    vk.vkGetPhysicalDeviceProperties(devices[i], &properties[i]);
    names.push_back(properties[i].deviceName);
  }
  const char *want = std::getenv("KILN_VULKAN_DEVICE");
  std::string choice = want ? want : "";
  if (choice.empty() && requestedDevice >= 0)
    choice = std::to_string(requestedDevice);
  if (!choice.empty()) {
    size_t index = 0;
    switch (rt::matchDevice(choice, names, index)) {
    case rt::DeviceMatch::Found:
      return devices[index];
    case rt::DeviceMatch::IndexOutOfRange:
      fatal("device index " + choice + " is out of range; the devices are:" +
            rt::listDevices(names));
    case rt::DeviceMatch::NoSuchName:
      fatal("no Vulkan device named '" + choice + "'; the devices are:" +
            rt::listDevices(names));
    }
  }
  const VkPhysicalDeviceType order[] = {
      VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
      VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
      VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU,
      VK_PHYSICAL_DEVICE_TYPE_OTHER};
  for (VkPhysicalDeviceType type : order)
    for (size_t i = 0; i < devices.size(); ++i)
      if (properties[i].deviceType == type)
        return devices[i];
  return devices.front();
}

void Context::initDevice() {
  if (device)
    return;
  initInstance();
  physical = choosePhysicalDevice();
  vk.vkGetPhysicalDeviceProperties(physical, &properties);
  vk.vkGetPhysicalDeviceMemoryProperties(physical, &memoryProperties);
  if (properties.apiVersion < VK_API_VERSION_1_1)
    fatal(std::string("device '") + properties.deviceName +
          "' supports only Vulkan 1.0; Kiln needs 1.1");

  uint32_t n = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, families.data());
  bool found = false;
  for (uint32_t i = 0; i < n && !found; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queueFamily = i;
      found = true;
    }
  if (!found)
    fatal(std::string("device '") + properties.deviceName +
          "' has no compute queue");
  timestamps = families[queueFamily].timestampValidBits > 0 &&
               properties.limits.timestampPeriod > 0;
  if (envTiming && !timestamps)
    std::fprintf(stderr, "kiln-vulkan: device '%s' has no compute timestamps; "
                         "--print-timing reports host time only\n",
                 properties.deviceName);
  timing = (envTiming || timingCallback) && timestamps;

  // Enable every feature the device has that kernels may use.
  uint32_t numExtensions = 0;
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &numExtensions,
                                          nullptr);
  std::vector<VkExtensionProperties> available(numExtensions);
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &numExtensions,
                                          available.data());
  auto has = [&](const char *name) {
    return std::any_of(available.begin(), available.end(), [&](auto &e) {
      return std::strcmp(e.extensionName, name) == 0;
    });
  };
  std::vector<const char *> extensions;
  nonSemanticInfo = properties.apiVersion >= VK_API_VERSION_1_3;
  if (!nonSemanticInfo &&
      has(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
    nonSemanticInfo = true;
  }
  // On by default where the device has it; KILN_VULKAN_HOST_IMPORT=0 stages.
  hostImport = has(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) &&
               (!std::getenv("KILN_VULKAN_HOST_IMPORT") ||
                envFlag("KILN_VULKAN_HOST_IMPORT"));
  if (hostImport) {
    extensions.push_back(VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME);
    extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 props2{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props2.pNext = &host;
    vk.vkGetPhysicalDeviceProperties2(physical, &props2);
    importAlignment = std::max<uint64_t>(host.minImportedHostPointerAlignment,
                                         sysconf(_SC_PAGESIZE));
  }

  VkPhysicalDeviceVulkan11Features features11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features features12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features features13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  uint32_t api = properties.apiVersion;
  if (api >= VK_API_VERSION_1_2) {
    features.pNext = &features11;
    features11.pNext = &features12;
    if (api >= VK_API_VERSION_1_3)
      features12.pNext = &features13;
  }
  vk.vkGetPhysicalDeviceFeatures2(physical, &features);
  // What kernels may use, less what KILN_VULKAN_HIDE_FEATURES hides; the
  // device is created with exactly that.
  capabilities.core = features.features;
  capabilities.knownOnlyCore = api < VK_API_VERSION_1_2;
  if (!capabilities.knownOnlyCore) {
    capabilities.v11 = features11;
    capabilities.v12 = features12;
    if (api >= VK_API_VERSION_1_3)
      capabilities.v13 = features13;
  }
  if (api >= VK_API_VERSION_1_1) {
    VkPhysicalDeviceSubgroupProperties subgroup{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props2{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props2.pNext = &subgroup;
    vk.vkGetPhysicalDeviceProperties2(physical, &props2);
    capabilities.subgroupOperations = subgroup.supportedOperations;
    capabilities.subgroupInCompute =
        (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }
  if (const char *hide = std::getenv("KILN_VULKAN_HIDE_FEATURES")) {
    std::string error;
    if (!hideFeatures(hide, capabilities, error))
      fatal(error);
    bool all = !capabilities.knownOnlyCore;
    storeFeatures(capabilities, features.features, all ? &features11 : nullptr,
                  all ? &features12 : nullptr, all ? &features13 : nullptr);
  }
  // Robustness is off unless asked for (KILN_VULKAN_ROBUST=1, the runners'
  // --robust-buffer-access): it costs, and it hides kernel bugs. Asked for,
  // an out-of-bounds access of a buffer argument reads zero and a write is
  // dropped (robustBufferAccess2 where the device has VK_EXT_robustness2;
  // core robustBufferAccess keeps accesses inside the buffer otherwise).
  robust = envFlag("KILN_VULKAN_ROBUST");
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  if (robust) {
    if (!features.features.robustBufferAccess)
      fatal(std::string("robust buffer access was asked for "
                        "(KILN_VULKAN_ROBUST), but device '") +
            properties.deviceName + "' does not offer robustBufferAccess");
    stats.robustBufferAccess = 1;
    if (has(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) {
      VkPhysicalDeviceFeatures2 query{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
      VkPhysicalDeviceRobustness2FeaturesEXT available{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
      query.pNext = &available;
      vk.vkGetPhysicalDeviceFeatures2(physical, &query);
      if (available.robustBufferAccess2) {
        stats.robustBufferAccess = 2;
        extensions.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
        robustness2.robustBufferAccess2 = VK_TRUE;
        robustness2.pNext = features.pNext;
        features.pNext = &robustness2;
      }
    }
  } else {
    features.features.robustBufferAccess = VK_FALSE;
  }
  features13.robustImageAccess = VK_FALSE;
  deviceAddresses = !capabilities.knownOnlyCore &&
                    capabilities.v12.bufferDeviceAddress &&
                    vk.vkGetBufferDeviceAddress;
  features12.bufferDeviceAddress = deviceAddresses;
  // Captured addresses and several devices in one are for tools; off.
  features12.bufferDeviceAddressCaptureReplay = VK_FALSE;
  features12.bufferDeviceAddressMultiDevice = VK_FALSE;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();
  check(vk.vkCreateDevice(physical, &info, nullptr, &device), "vkCreateDevice");
  ++stats.devices;
  vk.vkGetDeviceQueue(device, queueFamily, 0, &queue);

  VkPipelineCacheCreateInfo cacheInfo{
      VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  check(vk.vkCreatePipelineCache(device, &cacheInfo, nullptr, &pipelineCache),
        "vkCreatePipelineCache");
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = queueFamily;
  check(vk.vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool),
        "vkCreateCommandPool");
  ++stats.commandPools;
  // Bound for memrefs with no elements (a descriptor needs a real buffer).
  bool visible;
  createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, emptyBuffer,
               emptyMemory, visible, "the runtime's empty buffer");
}

void Context::teardown() {
  if (torndown)
    return;
  if (device) {
    vk.vkDeviceWaitIdle(device);
    for (auto &s : submissions) {
      for (HostSegment &segment : s->segments)
        releaseSegment(segment, false);
      vk.vkDestroyFence(device, s->fence, nullptr);
      if (s->pool)
        vk.vkDestroyDescriptorPool(device, s->pool, nullptr);
      if (s->queries)
        vk.vkDestroyQueryPool(device, s->queries, nullptr);
    }
    for (auto &m : modules) {
      for (auto &[name, k] : m->kernels) {
        vk.vkDestroyPipeline(device, k->pipeline, nullptr);
        vk.vkDestroyPipelineLayout(device, k->layout, nullptr);
        for (VkDescriptorSetLayout l : k->setLayouts)
          vk.vkDestroyDescriptorSetLayout(device, l, nullptr);
      }
      vk.vkDestroyShaderModule(device, m->shader, nullptr);
    }
    for (auto &[base, a] : allocations) {
      vk.vkDestroyBuffer(device, a.buffer, nullptr);
      vk.vkFreeMemory(device, a.memory, nullptr);
      if (a.reserved)
        munmap(reinterpret_cast<void *>(a.base), a.reserved);
    }
    vk.vkDestroyBuffer(device, emptyBuffer, nullptr);
    vk.vkFreeMemory(device, emptyMemory, nullptr);
    vk.vkDestroyCommandPool(device, commandPool, nullptr);
    vk.vkDestroyPipelineCache(device, pipelineCache, nullptr);
    vk.vkDestroyDevice(device, nullptr);
  }
  if (messenger)
    vk.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  if (instance)
    vk.vkDestroyInstance(instance, nullptr);
  torndown = true;
  if (unsigned n = validationMessages.load()) {
    // Messages reported at shutdown (a leak, say) still fail the run.
    std::fflush(stdout);
    std::fprintf(stderr,
                 "kiln-vulkan: the Khronos validation layer reported %u "
                 "message(s)\n",
                 n);
    std::fflush(stderr);
    _exit(1);
  }
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want,
                                 VkMemoryPropertyFlags avoid) const {
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < memoryProperties.memoryTypeCount; ++i) {
      VkMemoryPropertyFlags flags =
          memoryProperties.memoryTypes[i].propertyFlags;
      if (!(typeBits & (1u << i)) || (flags & want) != want)
        continue;
      if (pass == 0 && (flags & avoid))
        continue;
      return i;
    }
  return UINT32_MAX;
}

/// "N bytes (X.Y GiB)".
static std::string describeBytes(uint64_t bytes) {
  char text[64];
  std::snprintf(text, sizeof(text), "%" PRIu64 " bytes (%.1f GiB)", bytes,
                bytes / double(1ull << 30));
  return text;
}

void Context::outOfMemory(const std::string &purpose, uint64_t bytes,
                          const char *call, VkResult result) {
  fatal("cannot allocate " + describeBytes(bytes) + " for " + purpose +
        " on device '" + properties.deviceName + "', which has " +
        describeBytes(deviceLocalBytes(memoryProperties)) +
        " of device-local memory: " + call +
        " failed: " + vk::resultName(result));
}

void Context::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                           VkMemoryPropertyFlags want, VkBuffer &buffer,
                           VkDeviceMemory &memory, bool &hostVisible,
                           const std::string &purpose) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<VkDeviceSize>(size, 16);
  info.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (deviceAddresses)
    info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vk.vkCreateBuffer(device, &info, nullptr, &buffer);
      r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
    outOfMemory(purpose, info.size, "vkCreateBuffer", r);
  else
    check(r, "vkCreateBuffer");
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(device, buffer, &req);
  uint32_t type = findMemoryType(req.memoryTypeBits, want);
  if (type == UINT32_MAX)
    type = findMemoryType(req.memoryTypeBits, 0);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  VkMemoryAllocateFlagsInfo allocFlags{
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  allocFlags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (deviceAddresses)
    alloc.pNext = &allocFlags;
  VkResult result = vk.vkAllocateMemory(device, &alloc, nullptr, &memory);
  if (result != VK_SUCCESS) {
    vk.vkDestroyBuffer(device, buffer, nullptr);
    outOfMemory(purpose, req.size, "vkAllocateMemory", result);
  }
  check(vk.vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
  VkMemoryPropertyFlags flags =
      memoryProperties.memoryTypes[type].propertyFlags;
  hostVisible = (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
                (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

void *Context::allocate(uint64_t size, bool hostShared) {
  initDevice();
  Allocation a;
  a.size = size;
  bool visible = false;
  VkMemoryPropertyFlags want =
      hostShared ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                 : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  createBuffer(alignUp(std::max<uint64_t>(size, 1), 16),
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, want, a.buffer, a.memory,
               visible,
               hostShared ? "a host-shared mgpuMemAlloc (gpu.alloc)"
                          : "an mgpuMemAlloc (gpu.alloc)");
  if (visible)
    check(vk.vkMapMemory(device, a.memory, 0, VK_WHOLE_SIZE, 0, &a.mapped),
          "vkMapMemory");
  if (hostShared) {
    if (!a.mapped)
      fatal("no host-visible memory for a host-shared gpu.alloc");
    a.base = reinterpret_cast<uintptr_t>(a.mapped);
  } else {
    // A unique address range nobody can touch: the host sees a pointer it may
    // do arithmetic on and pass back, never dereference.
    a.reserved = alignUp(std::max<uint64_t>(size, 1), sysconf(_SC_PAGESIZE));
    void *p = mmap(nullptr, a.reserved, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      fatal("cannot reserve " + std::to_string(a.reserved) +
            " bytes of address space for a device allocation");
    a.base = reinterpret_cast<uintptr_t>(p);
  }
  allocations[a.base] = a;
  return reinterpret_cast<void *>(a.base);
}

const Allocation *Context::findAllocation(uintptr_t lo, uintptr_t hi) const {
  auto it = allocations.upper_bound(lo);
  if (it == allocations.begin())
    return nullptr;
  --it;
  const Allocation &a = it->second;
  if (lo >= a.base && hi <= a.base + std::max<uint64_t>(a.size, 1))
    return &a;
  return nullptr;
}

void Context::free(void *ptr) {
  if (!ptr || torndown)
    return;
  auto it = allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations.end())
    fatal("gpu.dealloc of a pointer that gpu.alloc did not return");
  drainAll();
  Allocation &a = it->second;
  vk.vkDestroyBuffer(device, a.buffer, nullptr);
  vk.vkFreeMemory(device, a.memory, nullptr);
  if (a.reserved)
    munmap(reinterpret_cast<void *>(a.base), a.reserved);
  allocations.erase(it);
}

void Context::beginRecording(VkCommandBuffer cmd) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vk.vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
}

void Context::memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages,
                            VkAccessFlags srcAccess,
                            VkPipelineStageFlags dstStages,
                            VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  vk.vkCmdPipelineBarrier(cmd, srcStages, dstStages, 0, 1, &barrier, 0,
                          nullptr, 0, nullptr);
}

template <typename F> double Context::runNow(F body, bool timed) {
  timed = timed && timestamps;
  Submission *s = acquireSubmission(0);
  if (timed)
    createQueries(s);
  beginRecording(s->cmd);
  memoryBarrier(s->cmd,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  if (timed)
    writeTimestamp(s, 0);
  body(s->cmd);
  if (timed)
    writeTimestamp(s, 1);
  memoryBarrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
  check(vk.vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
  std::vector<Submission *> one{s};
  submit(s, nullptr);
  waitAndComplete(one);
  // The submission is back in the free list but not reused before this
  // (the runtime's lock is held), so its queries are still readable.
  return timed ? gpuMicroseconds(s) : -1;
}

void Context::setTimingCallback(KilnTimingCallback callback, void *user) {
  drainAll();
  timingCallback = callback;
  timingUser = user;
  if (device)
    timing = (envTiming || timingCallback) && timestamps;
}

double Context::deviceCopy(void *dst, const void *src, size_t size) {
  initDevice();
  auto d = reinterpret_cast<uintptr_t>(dst);
  auto s = reinterpret_cast<uintptr_t>(src);
  const Allocation *da = findAllocation(d, d + size);
  const Allocation *sa = findAllocation(s, s + size);
  if (!da || !sa || size == 0)
    fatal("kilnVulkanDeviceCopy: both sides must be non-empty ranges of "
          "device allocations (mgpuMemAlloc)");
  drainAll();
  return runNow(
      [&](VkCommandBuffer cmd) {
        VkBufferCopy region{s - sa->base, d - da->base, size};
        vk.vkCmdCopyBuffer(cmd, sa->buffer, da->buffer, 1, &region);
      },
      /*timed=*/true);
}

void Context::copy(void *dst, const void *src, size_t size) {
  initDevice();
  if (size == 0)
    return;
  auto d = reinterpret_cast<uintptr_t>(dst);
  auto s = reinterpret_cast<uintptr_t>(src);
  const Allocation *da = findAllocation(d, d + size);
  const Allocation *sa = findAllocation(s, s + size);
  drainAll();
  if (!da && !sa) {
    std::memmove(dst, src, size);
    return;
  }
  // Host-visible device memory: copy on the host.
  if ((!da || da->mapped) && (!sa || sa->mapped)) {
    void *to = da ? static_cast<char *>(da->mapped) + (d - da->base) : dst;
    const void *from =
        sa ? static_cast<char *>(sa->mapped) + (s - sa->base) : src;
    std::memmove(to, from, size);
    return;
  }
  if (da && sa) {
    runNow([&](VkCommandBuffer cmd) {
      VkBufferCopy region{s - sa->base, d - da->base, size};
      vk.vkCmdCopyBuffer(cmd, sa->buffer, da->buffer, 1, &region);
    });
    return;
  }
  // One side is host memory: go through a host-visible staging buffer.
  VkBuffer staging;
  VkDeviceMemory memory;
  bool visible;
  createBuffer(size, 0,
               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
               staging, memory, visible,
               "the staging buffer of an mgpuMemcpy (gpu.memcpy)");
  void *mapped;
  check(vk.vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped),
        "vkMapMemory");
  ++stats.stagedCopies;
  if (da) {
    std::memcpy(mapped, src, size);
    runNow([&](VkCommandBuffer cmd) {
      VkBufferCopy region{0, d - da->base, size};
      vk.vkCmdCopyBuffer(cmd, staging, da->buffer, 1, &region);
    });
  } else {
    runNow([&](VkCommandBuffer cmd) {
      VkBufferCopy region{s - sa->base, 0, size};
      vk.vkCmdCopyBuffer(cmd, sa->buffer, staging, 1, &region);
    });
    std::memcpy(dst, mapped, size);
  }
  vk.vkDestroyBuffer(device, staging, nullptr);
  vk.vkFreeMemory(device, memory, nullptr);
}

void Context::fill(void *dst, uint32_t pattern, unsigned patternBytes,
                   size_t count) {
  initDevice();
  size_t size = count * patternBytes;
  if (size == 0)
    return;
  auto d = reinterpret_cast<uintptr_t>(dst);
  const Allocation *da = findAllocation(d, d + size);
  drainAll();
  auto fillHost = [&](void *to) {
    for (size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<char *>(to) + i * patternBytes, &pattern,
                  patternBytes);
  };
  if (!da) {
    fillHost(dst);
    return;
  }
  if (da->mapped) {
    fillHost(static_cast<char *>(da->mapped) + (d - da->base));
    return;
  }
  uint64_t offset = d - da->base;
  if (patternBytes == 2)
    pattern = (pattern & 0xFFFF) | (pattern << 16);
  if (offset % 4 == 0 && size % 4 == 0) {
    runNow([&](VkCommandBuffer cmd) {
      vk.vkCmdFillBuffer(cmd, da->buffer, offset, size, pattern);
    });
    return;
  }
  std::vector<uint8_t> host(size);
  fillHost(host.data());
  copy(dst, host.data(), size);
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// Names of the GLCompute entry points of a SPIR-V module and, where the
/// module fixes it with OpExecutionMode LocalSize, each one's workgroup size
/// (0s when it does not); false when the words are not a well-formed
/// instruction stream (drivers may crash on those rather than fail).
static bool scanEntryPoints(const std::vector<uint32_t> &words,
                            std::vector<std::string> &names,
                            std::map<std::string, std::array<uint32_t, 3>> &sizes,
                            bool &debugPrintf, std::string &error) {
  std::map<uint32_t, std::string> byId;
  if (words.size() < 5 || words[0] != container::kSPIRVMagic) {
    error = "the SPIR-V header is missing or has a bad magic number";
    return false;
  }
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xFFFF;
    if (count == 0 || i + count > words.size()) {
      error = "SPIR-V instruction at word " + std::to_string(i) +
              " runs past the end of the module";
      return false;
    }
    const uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16,
                   kGLCompute = 5, kLocalSize = 17;
    // The literal string that starts at operand word `first`.
    auto literal = [&](uint32_t first) {
      const char *chars = reinterpret_cast<const char *>(&words[i + first]);
      return std::string(chars, strnlen(chars, (count - first) * 4));
    };
    if (opcode == kOpEntryPoint && count >= 4 && words[i + 1] == kGLCompute) {
      names.push_back(literal(3));
      byId[words[i + 2]] = names.back();
      sizes[names.back()] = {0, 0, 0};
    }
    const uint32_t kOpExtInstImport = 11;
    if (opcode == kOpExtInstImport && count >= 3)
      debugPrintf |= literal(2) == "NonSemantic.DebugPrintf";
    if (opcode == kOpExecutionMode && count == 6 &&
        words[i + 2] == kLocalSize) {
      auto it = byId.find(words[i + 1]);
      if (it != byId.end())
        sizes[it->second] = {words[i + 3], words[i + 4], words[i + 5]};
    }
    i += count;
  }
  return true;
}

bool kiln::vkrt::inspectModule(const void *data, size_t size, Module &module,
                               std::string &error) {
  if (!data && size) {
    error = "a null module of " + std::to_string(size) + " bytes";
    return false;
  }
  module.bytes.assign(static_cast<const uint8_t *>(data),
                      static_cast<const uint8_t *>(data) + size);
  if (container::isContainer(data, size)) {
    if (!container::parse(module.bytes.data(), size, module.info, error))
      return false;
    module.isContainer = true;
  } else {
    uint32_t magic = 0;
    if (size >= 4)
      std::memcpy(&magic, data, 4);
    if (size < 20 || size % 4 != 0 || magic != container::kSPIRVMagic) {
      error = std::to_string(size) +
              " bytes that are neither a Kiln container nor SPIR-V (bad "
              "magic or size)";
      return false;
    }
    module.info.spirv.resize(size / 4);
    std::memcpy(module.info.spirv.data(), data, size);
  }
  std::map<std::string, std::array<uint32_t, 3>> localSizes;
  if (!scanEntryPoints(module.info.spirv, module.entryPoints, localSizes,
                       module.debugPrintf, error))
    return false;
  // The container's argument table is trusted only where the SPIR-V agrees:
  // every kernel it lists is an entry point with the workgroup size it says.
  if (!module.isContainer)
    return true;
  for (const container::KernelInfo &k : module.info.kernels) {
    auto it = localSizes.find(k.name);
    if (it == localSizes.end()) {
      error = "its container lists kernel '" + k.name +
              "', which its SPIR-V has no entry point for";
      return false;
    }
    const std::array<uint32_t, 3> &local = it->second;
    if (local[0] != 0 && (local[0] != k.workgroupSize[0] ||
                          local[1] != k.workgroupSize[1] ||
                          local[2] != k.workgroupSize[2])) {
      error = "its container gives kernel '" + k.name + "' workgroup size (" +
              std::to_string(k.workgroupSize[0]) + ", " +
              std::to_string(k.workgroupSize[1]) + ", " +
              std::to_string(k.workgroupSize[2]) + ") but its SPIR-V (" +
              std::to_string(local[0]) + ", " + std::to_string(local[1]) +
              ", " + std::to_string(local[2]) + ")";
      return false;
    }
  }
  return true;
}

Module *Context::loadModule(const void *data, size_t size) {
  // The JIT and AOT hosts load each embedded binary once, but a host that
  // loads per launch must not pay for it: reuse a module with the same bytes.
  for (auto &m : modules)
    if (m->source == data && m->bytes.size() == size &&
        std::memcmp(m->bytes.data(), data, size) == 0) {
      ++m->references;
      return m.get();
    }
  auto module = std::make_unique<Module>();
  module->source = data;
  if (std::string error; !inspectModule(data, size, *module, error))
    fatal("cannot load GPU module: " + error);
  // A module that prints turns debug printf on if it is loaded before the
  // instance exists. The JIT and AOT hosts load every module before main
  // runs, so the device (and the instance) waits for the first kernel
  // lookup: a program whose later module prints gets debug printf too.
  if (module->debugPrintf && !instance)
    printfRequested = true;
  module->references = 1;
  modules.push_back(std::move(module));
  Module *loaded = modules.back().get();
  if (device)
    createShader(loaded);
  return loaded;
}

void Context::validateForDevice(const Module &module,
                                const std::string &kernels) {
  if (!validateSPIRV || !haveSPIRVValidator())
    return;
  // FNV-1a over the words: a program that loads the same SPIR-V again (or
  // from another address) pays once.
  const std::vector<uint32_t> &words = module.info.spirv;
  uint64_t hash = 1469598103934665603ull;
  for (uint32_t w : words)
    hash = (hash ^ w) * 1099511628211ull;
  if (!validatedSPIRV.insert({hash, words.size()}).second)
    return;
  auto start = std::chrono::steady_clock::now();
  std::string envName, error;
  bool valid = kiln::vkrt::validateSPIRV(words, properties.apiVersion,
                                         envName, error);
  stats.spirvValidationNanoseconds +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - start)
          .count();
  ++stats.spirvValidations;
  if (!valid)
    fatal("cannot load GPU module with " + kernels +
          ": its SPIR-V fails validation (spirv-val --target-env " + envName +
          ", for device '" + properties.deviceName + "'): " + error);
}

/// "kernel 'a'" or "kernels 'a', 'b'": a module named by its entry points.
static std::string describeKernels(const Module &module) {
  return (module.entryPoints.size() == 1 ? "kernel " : "kernels ") +
         quotedList(module.entryPoints);
}

void Context::createShader(Module *module) {
  initDevice();
  std::string kernels = describeKernels(*module);
  if (module->debugPrintf) {
    if (!nonSemanticInfo)
      fatal("cannot load GPU module with " + kernels +
            ": it prints (NonSemantic.DebugPrintf), and device '" +
            properties.deviceName +
            "' has neither Vulkan 1.3 nor VK_KHR_shader_non_semantic_info");
    if (!printfOn && !printfOff)
      fatal("cannot load GPU module with " + kernels +
            ": it prints (gpu.printf), but the Vulkan instance was created "
            "before it was loaded, without debug printf; set "
            "KILN_VULKAN_PRINTF=1 to have it from the start (or "
            "KILN_VULKAN_PRINTF=0 to run the kernels without printing)");
  }
  std::string missing = missingCapability(module->info.spirv, capabilities);
  if (!missing.empty())
    fatal("cannot load GPU module with " + kernels + ": it needs " + missing + ", which device '" +
          properties.deviceName +
          "' does not offer; compile it for this device "
          "(kiln-compile --target-env=device) or a target env without it");
  validateForDevice(*module, kernels);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = module->info.spirv.size() * 4;
  info.pCode = module->info.spirv.data();
  check(vk.vkCreateShaderModule(device, &info, nullptr, &module->shader),
        "vkCreateShaderModule");
  checkValidation();
  ++stats.shaderModules;
}

void Context::unloadModule(Module *module) {
  if (!module || torndown || module->references == 0)
    return;
  // Pipelines stay cached with the module for the rest of the process: a
  // module is loaded again with the same bytes more often than not.
  --module->references;
}

Kernel *Context::getKernel(Module *module, const char *name) {
  if (!module)
    fatal("mgpuModuleGetFunction on a module that failed to load");
  if (!module->shader)
    createShader(module);
  auto it = module->kernels.find(name);
  if (it != module->kernels.end())
    return it->second.get();
  auto kernel = std::make_unique<Kernel>();
  kernel->module = module;
  kernel->name = name;
  if (std::find(module->entryPoints.begin(), module->entryPoints.end(),
                name) == module->entryPoints.end()) {
    std::string names;
    for (const std::string &n : module->entryPoints)
      names += (names.empty() ? "" : ", ") + n;
    fatal("GPU module has no compute entry point '" + std::string(name) +
          "'; it has: " + (names.empty() ? "none" : names));
  }
  if (module->isContainer) {
    kernel->info = module->info.findKernel(name);
    if (!kernel->info) {
      std::string names;
      for (auto &k : module->info.kernels)
        names += (names.empty() ? "" : ", ") + k.name;
      fatal("GPU module has no kernel '" + std::string(name) +
            "'; it has: " + names);
    }
    const VkPhysicalDeviceLimits &limits = properties.limits;
    const uint32_t *wg = kernel->info->workgroupSize;
    uint64_t invocations = uint64_t(wg[0]) * wg[1] * wg[2];
    const char *axes = "xyz";
    for (int i = 0; i < 3; ++i)
      if (wg[i] > limits.maxComputeWorkGroupSize[i])
        fatal("kernel '" + kernel->name + "' has workgroup size " +
              std::to_string(wg[i]) + " in " + axes[i] + ", above device '" +
              properties.deviceName + "''s limit of " +
              std::to_string(limits.maxComputeWorkGroupSize[i]) +
              " (maxComputeWorkGroupSize)");
    if (invocations > limits.maxComputeWorkGroupInvocations)
      fatal("kernel '" + kernel->name + "' has " +
            std::to_string(invocations) +
            " invocations per workgroup, above device '" +
            properties.deviceName + "''s limit of " +
            std::to_string(limits.maxComputeWorkGroupInvocations) +
            " (maxComputeWorkGroupInvocations)");
    if (kernel->info->pushConstantSize > limits.maxPushConstantsSize)
      fatal("kernel '" + kernel->name + "' needs " +
            std::to_string(kernel->info->pushConstantSize) +
            " bytes of push constants, above device '" +
            properties.deviceName + "''s limit of " +
            std::to_string(limits.maxPushConstantsSize) +
            " (maxPushConstantsSize)");
    createPipeline(kernel.get(), SIZE_MAX);
  }
  Kernel *k = kernel.get();
  module->kernels[name] = std::move(kernel);
  return k;
}

void Context::createPipeline(Kernel *kernel, size_t rawBuffers) {
  // Raw SPIR-V kernels get their layout from the first launch's argument
  // count; it changes only if a later launch passes a different count.
  if (kernel->pipeline) {
    drainAll();
    // Another thread may have rebuilt it while the lock was released.
    if (kernel->rawBuffers == rawBuffers)
      return;
    vk.vkDestroyPipeline(device, kernel->pipeline, nullptr);
    vk.vkDestroyPipelineLayout(device, kernel->layout, nullptr);
    for (VkDescriptorSetLayout l : kernel->setLayouts)
      vk.vkDestroyDescriptorSetLayout(device, l, nullptr);
    kernel->setLayouts.clear();
  }
  std::vector<std::vector<VkDescriptorSetLayoutBinding>> sets;
  const VkPhysicalDeviceLimits &limits = properties.limits;
  auto add = [&](uint32_t set, uint32_t binding) {
    // Checked before anything is sized from them: a set or binding from a
    // container is untrusted (set 2^32-1 once wrapped `set + 1` to 0).
    if (set >= limits.maxBoundDescriptorSets)
      fatal("kernel '" + kernel->name + "' uses descriptor set " +
            std::to_string(set) + "; device '" + properties.deviceName +
            "' binds sets 0 to " +
            std::to_string(limits.maxBoundDescriptorSets - 1) +
            " (maxBoundDescriptorSets)");
    if (binding >= limits.maxPerStageDescriptorStorageBuffers)
      fatal("kernel '" + kernel->name + "' uses binding " +
            std::to_string(binding) + " in descriptor set " +
            std::to_string(set) + "; Kiln allows bindings below device '" +
            properties.deviceName + "''s " +
            std::to_string(limits.maxPerStageDescriptorStorageBuffers) +
            " storage buffers per stage (maxPerStageDescriptorStorageBuffers)");
    if (sets.size() <= set)
      sets.resize(size_t(set) + 1);
    for (const VkDescriptorSetLayoutBinding &other : sets[set])
      if (other.binding == binding)
        fatal("kernel '" + kernel->name + "' has two arguments at descriptor "
              "set " + std::to_string(set) + ", binding " +
              std::to_string(binding));
    VkDescriptorSetLayoutBinding b{};
    b.binding = binding;
    b.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    b.descriptorCount = 1;
    b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    sets[set].push_back(b);
    kernel->maxBinding = std::max(kernel->maxBinding, binding);
  };
  uint32_t pushConstants = 0;
  if (kernel->info) {
    for (const container::ArgInfo &a : kernel->info->args)
      if (a.kind == ArgKind::MemRef)
        add(a.set, a.binding);
    pushConstants = kernel->info->pushConstantSize;
  } else {
    for (size_t i = 0; i < rawBuffers; ++i)
      add(0, i);
    kernel->rawBuffers = rawBuffers;
  }
  if (sets.size() > properties.limits.maxBoundDescriptorSets)
    fatal("kernel '" + kernel->name + "' uses descriptor set " +
          std::to_string(sets.size() - 1) + ", above device limit of " +
          std::to_string(properties.limits.maxBoundDescriptorSets) +
          " sets (maxBoundDescriptorSets)");
  for (auto &bindings : sets) {
    VkDescriptorSetLayoutCreateInfo info{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = bindings.size();
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout;
    check(vk.vkCreateDescriptorSetLayout(device, &info, nullptr, &layout),
          "vkCreateDescriptorSetLayout");
    kernel->setLayouts.push_back(layout);
  }
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstants};
  VkPipelineLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = kernel->setLayouts.size();
  layoutInfo.pSetLayouts = kernel->setLayouts.data();
  layoutInfo.pushConstantRangeCount = pushConstants ? 1 : 0;
  layoutInfo.pPushConstantRanges = &range;
  check(vk.vkCreatePipelineLayout(device, &layoutInfo, nullptr,
                                  &kernel->layout),
        "vkCreatePipelineLayout");
  VkComputePipelineCreateInfo info{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = kernel->module->shader;
  info.stage.pName = kernel->name.c_str();
  info.layout = kernel->layout;
  // The validation layer reports a pipeline that does not match its layout
  // here; stop before the driver uses it (some crash on one).
  checkValidation();
  VkResult result = vk.vkCreateComputePipelines(device, pipelineCache, 1,
                                                &info, nullptr,
                                                &kernel->pipeline);
  if (result != VK_SUCCESS)
    fatal("vkCreateComputePipelines for kernel '" + kernel->name +
          "' failed: " + vk::resultName(result));
  ++stats.pipelines;
}

//===----------------------------------------------------------------------===//
// Submissions and streams
//===----------------------------------------------------------------------===//

Submission *Context::acquireSubmission(uint32_t buffers) {
  Submission *s;
  if (!freeSubmissions.empty()) {
    s = freeSubmissions.back();
    freeSubmissions.pop_back();
    check(vk.vkResetCommandBuffer(s->cmd, 0), "vkResetCommandBuffer");
  } else {
    submissions.push_back(std::make_unique<Submission>());
    s = submissions.back().get();
    VkCommandBufferAllocateInfo info{
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = commandPool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    check(vk.vkAllocateCommandBuffers(device, &info, &s->cmd),
          "vkAllocateCommandBuffers");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vk.vkCreateFence(device, &fenceInfo, nullptr, &s->fence),
          "vkCreateFence");
  }
  if (buffers > 0 && s->poolBuffers < buffers) {
    if (s->pool)
      vk.vkDestroyDescriptorPool(device, s->pool, nullptr);
    s->poolBuffers = std::max<uint32_t>(buffers, 16);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              s->poolBuffers};
    VkDescriptorPoolCreateInfo info{
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = 8;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    check(vk.vkCreateDescriptorPool(device, &info, nullptr, &s->pool),
          "vkCreateDescriptorPool");
    ++stats.descriptorPools;
  } else if (buffers > 0) {
    check(vk.vkResetDescriptorPool(device, s->pool, 0),
          "vkResetDescriptorPool");
  }
  if (timing)
    createQueries(s);
  s->kernel.clear();
  s->timed = false;
  return s;
}

void Context::createQueries(Submission *s) {
  if (s->queries)
    return;
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  check(vk.vkCreateQueryPool(device, &info, nullptr, &s->queries),
        "vkCreateQueryPool");
}

void Context::writeTimestamp(Submission *s, uint32_t which) {
  if (which == 0) {
    vk.vkCmdResetQueryPool(s->cmd, s->queries, 0, 2);
    vk.vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                           s->queries, 0);
  } else {
    vk.vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                           s->queries, 1);
  }
}

double Context::gpuMicroseconds(Submission *s) {
  uint64_t stamps[2] = {0, 0};
  if (vk.vkGetQueryPoolResults(device, s->queries, 0, 2, sizeof(stamps),
                               stamps, sizeof(uint64_t),
                               VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
    return -1;
  return double(stamps[1] - stamps[0]) * properties.limits.timestampPeriod /
         1000.0;
}

void Context::submit(Submission *s, Stream *stream) {
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &s->cmd;
  s->submitted = std::chrono::steady_clock::now();
  check(vk.vkQueueSubmit(queue, 1, &info, s->fence), "vkQueueSubmit");
  s->submitReturned = std::chrono::steady_clock::now();
  s->stream = stream;
  if (stream)
    stream->pending.push_back(s);
}

void Context::complete(Submission *s) {
  s->done = true;
  if (s->stream) {
    auto &pending = s->stream->pending;
    pending.erase(std::remove(pending.begin(), pending.end(), s),
                  pending.end());
    s->stream = nullptr;
  }
  auto done = std::chrono::steady_clock::now();
  for (HostSegment &segment : s->segments)
    releaseSegment(segment, true);
  s->segments.clear();
  if (s->timed) {
    double hostUs =
        std::chrono::duration<double, std::micro>(done - s->submitted).count();
    double gpuUs = s->queries ? gpuMicroseconds(s) : -1;
    if (upstreamTiming) {
      // Upstream's wording, on stdout, where its tests' CHECK lines look.
      auto us = [](auto d) {
        return std::chrono::duration<double, std::micro>(d).count();
      };
      std::fflush(stderr);
      std::printf("Compute shader execution time: %.3fus\n"
                  "Command buffer submit time: %.0fus\n"
                  "Wait idle time: %.0fus\n",
                  gpuUs, us(s->submitReturned - s->submitted),
                  us(done - s->submitReturned));
      std::fflush(stdout);
    } else if (envTiming) {
      std::fprintf(stderr, "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f\n",
                   s->kernel.c_str(), gpuUs, hostUs);
    }
    if (timingCallback)
      timingCallback(timingUser, s->kernel.c_str(), gpuUs);
  }
  if (s->waiters == 0)
    recycle(s);
}

void Context::recycle(Submission *s) {
  check(vk.vkResetFences(device, 1, &s->fence), "vkResetFences");
  s->done = false;
  freeSubmissions.push_back(s);
}

thread_local std::unique_lock<std::mutex> *Context::heldLock = nullptr;

void Context::waitAndComplete(std::vector<Submission *> targets) {
  if (targets.empty())
    return;
  std::vector<VkFence> fences;
  for (Submission *s : targets) {
    ++s->waiters;
    fences.push_back(s->fence);
  }
  uint64_t timeout =
      timeoutSeconds > 0 ? uint64_t(timeoutSeconds * 1e9) : UINT64_MAX;
  // Other threads go on meanwhile: they may submit, allocate, or complete
  // these same submissions (which stay unrecycled while waited on).
  std::unique_lock<std::mutex> *lock = heldLock;
  if (lock)
    lock->unlock();
  VkResult waited = vk.vkWaitForFences(device, fences.size(), fences.data(),
                                       VK_TRUE, timeout);
  if (lock)
    lock->lock();
  for (Submission *s : targets)
    --s->waiters;
  if (waited == VK_TIMEOUT) {
    std::vector<std::string> running;
    for (Submission *s : targets)
      if (vk.vkGetFenceStatus(device, s->fence) == VK_NOT_READY)
        running.push_back(s->kernel.empty() ? "(a copy)" : s->kernel);
    std::string kernels = quotedList(running);
    kiln::rt::stopAfterTimeout(
        "kiln-vulkan", kernels.empty() ? "the work" : "kernel " + kernels,
        timeoutSeconds, std::string("'") + properties.deviceName + "'");
  }
  if (waited == VK_ERROR_DEVICE_LOST) {
    std::vector<std::string> launched;
    for (Submission *s : targets)
      if (!s->kernel.empty())
        launched.push_back(s->kernel);
    std::string kernels = quotedList(launched);
    fatal(std::string("device '") + properties.deviceName + "' was lost" +
          (kernels.empty() ? "" : " while waiting for kernel " + kernels) +
          " (vkWaitForFences: VK_ERROR_DEVICE_LOST); a kernel that faults "
          "or runs past the driver's watchdog loses the device");
  }
  check(waited, "vkWaitForFences");
  for (Submission *s : targets) {
    if (!s->done)
      complete(s);
    else if (s->waiters == 0)
      recycle(s); // Completed by a thread that left it to its last waiter.
  }
  checkValidation();
}

void Context::synchronize(Stream *stream) {
  if (!device || torndown)
    return;
  waitAndComplete((stream ? stream : &defaultStream_)->pending);
}

void Context::drainAll() {
  if (!device)
    return;
  // Waits release the lock, and other threads may create streams or submit
  // meanwhile: collect under the lock, and go on until nothing is pending
  // while it is held.
  for (;;) {
    std::vector<Submission *> all = defaultStream_.pending;
    for (auto &s : streams)
      all.insert(all.end(), s->pending.begin(), s->pending.end());
    if (all.empty())
      return;
    waitAndComplete(std::move(all));
  }
}

void Context::record(Event *, Stream *) {
  // All work goes to one queue, ordered by barriers; an event completes when
  // everything submitted before it has.
}

void Context::synchronize(Event *) { drainAll(); }

Stream *Context::createStream() {
  streams.push_back(std::make_unique<Stream>());
  return streams.back().get();
}

void Context::destroyStream(Stream *stream) {
  if (!stream || torndown)
    return;
  synchronize(stream);
  for (auto it = streams.begin(); it != streams.end(); ++it)
    if (it->get() == stream) {
      streams.erase(it);
      return;
    }
}

//===----------------------------------------------------------------------===//
// Host memory for a launch
//===----------------------------------------------------------------------===//

void Context::mapSegments(std::vector<HostSegment> &segments,
                          const std::string &kernel) {
  for (HostSegment &seg : segments) {
    if (hostImport) {
      uintptr_t lo = alignDown(seg.lo, importAlignment);
      uintptr_t hi = alignUp(seg.hi, importAlignment);
      VkMemoryHostPointerPropertiesEXT hostProps{
          VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
      VkResult r = vk.vkGetMemoryHostPointerPropertiesEXT(
          device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
          reinterpret_cast<void *>(lo), &hostProps);
      if (r == VK_SUCCESS && hostProps.memoryTypeBits) {
        VkExternalMemoryBufferCreateInfo external{
            VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
        external.handleTypes =
            VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.pNext = &external;
        info.size = hi - lo;
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (deviceAddresses)
          info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
        check(vk.vkCreateBuffer(device, &info, nullptr, &seg.buffer),
              "vkCreateBuffer");
        VkMemoryRequirements req;
        vk.vkGetBufferMemoryRequirements(device, seg.buffer, &req);
        uint32_t type = findMemoryType(req.memoryTypeBits &
                                           hostProps.memoryTypeBits,
                                       0);
        VkImportMemoryHostPointerInfoEXT import{
            VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
        import.handleType =
            VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
        import.pHostPointer = reinterpret_cast<void *>(lo);
        VkMemoryAllocateFlagsInfo flags{
            VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
        flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
        if (deviceAddresses)
          import.pNext = &flags;
        VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        alloc.pNext = &import;
        alloc.allocationSize = hi - lo;
        alloc.memoryTypeIndex = type;
        if (type != UINT32_MAX && req.size <= hi - lo &&
            vk.vkAllocateMemory(device, &alloc, nullptr, &seg.memory) ==
                VK_SUCCESS) {
          check(vk.vkBindBufferMemory(device, seg.buffer, seg.memory, 0),
                "vkBindBufferMemory");
          seg.base = lo;
          ++stats.hostImports;
          continue;
        }
        // The driver refused this range (e.g. not its kind of memory):
        // stage it instead.
        vk.vkDestroyBuffer(device, seg.buffer, nullptr);
        seg.buffer = VK_NULL_HANDLE;
      }
    }
    // Staging: a host-visible buffer whose byte 0 is congruent to the host
    // range's start modulo 256, so offset alignment carries over.
    uintptr_t lo = alignDown(seg.lo, 256);
    bool visible;
    createBuffer(seg.hi - lo, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                 seg.buffer, seg.memory, visible,
                 "staging the host memory of kernel '" + kernel + "'");
    if (!visible)
      fatal("no host-visible coherent memory to stage host buffers through");
    check(vk.vkMapMemory(device, seg.memory, 0, VK_WHOLE_SIZE, 0, &seg.mapped),
          "vkMapMemory");
    std::memcpy(static_cast<char *>(seg.mapped) + (seg.lo - lo),
                reinterpret_cast<void *>(seg.lo), seg.hi - seg.lo);
    seg.base = lo;
    seg.staged = true;
    ++stats.stagedCopies;
  }
}

void Context::releaseSegment(HostSegment &seg, bool copyBack) {
  if (seg.staged && copyBack)
    std::memcpy(reinterpret_cast<void *>(seg.lo),
                static_cast<char *>(seg.mapped) + (seg.lo - seg.base),
                seg.hi - seg.lo);
  if (seg.buffer)
    vk.vkDestroyBuffer(device, seg.buffer, nullptr);
  if (seg.memory)
    vk.vkFreeMemory(device, seg.memory, nullptr);
  seg.buffer = VK_NULL_HANDLE;
  seg.memory = VK_NULL_HANDLE;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

namespace {
/// A memref argument as the launch sees it.
struct BufferArg {
  uint32_t argument = 0; ///< Its position among the kernel's arguments.
  uint32_t set = 0, binding = 0;
  uint64_t elementBytes = 1;
  uintptr_t aligned = 0;
  uintptr_t lo = 0, hi = 0; ///< Bytes the kernel may touch.
  bool rebasable = false;   ///< The kernel reads its offset from push constants.
  bool empty = false;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
  uint32_t pushConstantOffset = container::kNoPushConstant;
  /// Bound by device address: the address goes at pushConstantOffset, the
  /// metadata (when rebasable) 8 bytes after it.
  bool byAddress = false;
  Binding bound;
  int segment = -1;
};
} // namespace

template <typename T> static T readParam(void *param) {
  T value;
  std::memcpy(&value, param, sizeof(T));
  return value;
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1F;
  uint32_t mantissa = h & 0x3FF;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      // Subnormal: normalize.
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      bits = sign | (uint32_t(127 - 15 - e) << 23) | ((mantissa & 0x3FF) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7F800000 | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void Context::launch(Kernel *kernel, const intptr_t grid[3],
                     const intptr_t block[3], Stream *stream, void **params,
                     size_t paramsCount) {
  if (!kernel)
    fatal("mgpuLaunchKernel with a null function");
  const container::KernelInfo *info = kernel->info;
  const VkPhysicalDeviceLimits &limits = properties.limits;
  const char *axes = "xyz";
  // An empty grid is refused, as CUDA refuses it: a launch that silently
  // does nothing hides a wrong size computation.
  for (int i = 0; i < 3; ++i)
    if (grid[i] < 1 || uint64_t(grid[i]) > limits.maxComputeWorkGroupCount[i])
      fatal("kernel '" + kernel->name + "' launched with " +
            std::to_string(grid[i]) + " workgroups in " + axes[i] +
            "; device '" + properties.deviceName + "' allows 1 to " +
            std::to_string(limits.maxComputeWorkGroupCount[i]) +
            " (maxComputeWorkGroupCount)");
  if (info)
    for (int i = 0; i < 3; ++i)
      if (uint64_t(block[i]) != info->workgroupSize[i])
        fatal("kernel '" + kernel->name + "' was compiled for workgroup size (" +
              std::to_string(info->workgroupSize[0]) + ", " +
              std::to_string(info->workgroupSize[1]) + ", " +
              std::to_string(info->workgroupSize[2]) +
              ") but is launched with block size (" +
              std::to_string(block[0]) + ", " + std::to_string(block[1]) +
              ", " + std::to_string(block[2]) + ")");

  // Decode the arguments.
  std::vector<BufferArg> buffers;
  std::vector<uint8_t> pushConstants(info ? info->pushConstantSize : 0);
  auto writePC = [&](uint32_t offset, const void *value, size_t bytes) {
    if (offset + bytes > pushConstants.size())
      fatal("kernel '" + kernel->name +
            "' has a push-constant field outside its block; the container "
            "is corrupt");
    std::memcpy(pushConstants.data() + offset, value, bytes);
  };
  if (info) {
    size_t expected = 0;
    for (const container::ArgInfo &a : info->args)
      expected += container::isMemRefKind(a.kind) ? 3 + 2 * a.rank : 1;
    if (paramsCount != expected)
      fatal("kernel '" + kernel->name + "' takes " + std::to_string(expected) +
            " parameters (memrefs as allocated, aligned, offset, sizes, "
            "strides), but the launch passed " + std::to_string(paramsCount));
    size_t p = 0;
    for (const container::ArgInfo &a : info->args) {
      if (a.kind == ArgKind::Scalar) {
        void *v = params[p++];
        uint32_t u32;
        switch (a.scalarType) {
        case ScalarType::I1:
          u32 = readParam<uint8_t>(v) & 1;
          writePC(a.pushConstantOffset, &u32, 4);
          break;
        case ScalarType::I8:
          u32 = uint32_t(int32_t(readParam<int8_t>(v)));
          writePC(a.pushConstantOffset, &u32, 4);
          break;
        case ScalarType::I16:
          u32 = uint32_t(int32_t(readParam<int16_t>(v)));
          writePC(a.pushConstantOffset, &u32, 4);
          break;
        case ScalarType::I32:
        case ScalarType::F32:
          writePC(a.pushConstantOffset, v, 4);
          break;
        case ScalarType::I64:
        case ScalarType::F64:
          writePC(a.pushConstantOffset, v, 8);
          break;
        case ScalarType::F16: {
          float f = halfToFloat(readParam<uint16_t>(v));
          writePC(a.pushConstantOffset, &f, 4);
          break;
        }
        case ScalarType::Index: {
          int64_t i = readParam<int64_t>(v);
          if (a.size == 4) {
            int32_t narrow = int32_t(i);
            writePC(a.pushConstantOffset, &narrow, 4);
          } else {
            writePC(a.pushConstantOffset, &i, 8);
          }
          break;
        }
        default:
          fatal("kernel '" + kernel->name +
                "' has an argument of unknown scalar type; the container is "
                "corrupt");
        }
        continue;
      }
      BufferArg b;
      b.argument = &a - info->args.data();
      b.set = a.set;
      b.binding = a.binding;
      b.elementBytes = std::max<uint32_t>(a.size, 1);
      b.aligned = readParam<uintptr_t>(params[p + 1]);
      b.offset = readParam<int64_t>(params[p + 2]);
      for (uint32_t d = 0; d < a.rank; ++d) {
        b.sizes.push_back(readParam<int64_t>(params[p + 3 + d]));
        b.strides.push_back(readParam<int64_t>(params[p + 3 + a.rank + d]));
      }
      p += 3 + 2 * a.rank;
      b.pushConstantOffset = a.pushConstantOffset;
      b.byAddress = container::isAddressKind(a.kind);
      b.rebasable = a.kind == ArgKind::StridedAddress ||
                    (a.kind == ArgKind::MemRef &&
                     a.pushConstantOffset != container::kNoPushConstant);
      int64_t minIndex = b.offset, maxIndex = b.offset;
      for (uint32_t d = 0; d < a.rank; ++d) {
        if (b.sizes[d] <= 0)
          b.empty = true;
        int64_t extent = (b.sizes[d] - 1) * b.strides[d];
        (extent < 0 ? minIndex : maxIndex) += extent;
      }
      b.lo = b.aligned + minIndex * int64_t(b.elementBytes);
      b.hi = b.aligned + (maxIndex + 1) * int64_t(b.elementBytes);
      buffers.push_back(std::move(b));
    }
  } else {
    if (paramsCount % 2 != 0)
      fatal("kernel '" + kernel->name +
            "' (raw SPIR-V) takes {pointer, size} pairs, but the launch "
            "passed " +
            std::to_string(paramsCount) + " parameters");
    if (kernel->rawBuffers != paramsCount / 2)
      createPipeline(kernel, paramsCount / 2);
    for (size_t i = 0; i < paramsCount; i += 2) {
      BufferArg b;
      b.binding = i / 2;
      b.aligned = readParam<uintptr_t>(params[i]);
      int64_t bytes = readParam<int64_t>(params[i + 1]);
      b.lo = b.aligned;
      b.hi = b.aligned + std::max<int64_t>(bytes, 0);
      b.empty = bytes <= 0;
      buffers.push_back(std::move(b));
    }
  }

  // Find each buffer's memory: device allocations, else host memory grouped
  // into segments (overlapping views of one host buffer share one).
  std::vector<HostSegment> segments;
  std::vector<size_t> hostArgs;
  for (size_t i = 0; i < buffers.size(); ++i) {
    BufferArg &b = buffers[i];
    if (b.empty)
      continue;
    if (const Allocation *a = findAllocation(b.lo, b.hi)) {
      b.bound.buffer = a->buffer;
      b.bound.offset = b.lo - a->base;
      continue;
    }
    if (findAllocation(b.lo, b.lo + 1) || findAllocation(b.hi - 1, b.hi))
      fatal("kernel '" + kernel->name + "' argument at binding " +
            std::to_string(b.binding) +
            " reaches outside the gpu.alloc buffer it points into");
    hostArgs.push_back(i);
  }
  std::sort(hostArgs.begin(), hostArgs.end(),
            [&](size_t x, size_t y) { return buffers[x].lo < buffers[y].lo; });
  for (size_t i : hostArgs) {
    BufferArg &b = buffers[i];
    if (segments.empty() || b.lo > segments.back().hi) {
      HostSegment seg;
      seg.lo = b.lo;
      seg.hi = b.hi;
      segments.push_back(seg);
    } else {
      segments.back().hi = std::max(segments.back().hi, b.hi);
    }
    b.segment = segments.size() - 1;
  }
  mapSegments(segments, kernel->name);

  // Bind: descriptor offsets must be aligned; kernels that read their offset
  // from push constants absorb the difference.
  uint64_t alignment = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1);
  for (BufferArg &b : buffers) {
    if (b.byAddress && !deviceAddresses)
      fatal("kernel '" + kernel->name + "' binds a memref by buffer device "
            "address, but device '" + properties.deviceName +
            "' has no bufferDeviceAddress; compile it with "
            "--buffer-device-address=never");
    if (b.empty) {
      b.bound.buffer = emptyBuffer;
      b.bound.offset = 0;
      b.bound.range = 16;
      continue;
    }
    uintptr_t base = 0;
    if (b.segment >= 0) {
      b.bound.buffer = segments[b.segment].buffer;
      base = segments[b.segment].base;
      b.bound.offset = b.lo - base;
    } else {
      base = b.lo - b.bound.offset;
    }
    if (b.byAddress) {
      // No descriptor, so no range limit and no offset alignment: the
      // kernel gets the address of the first byte it may touch.
      VkBufferDeviceAddressInfo info{
          VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
      info.buffer = b.bound.buffer;
      b.bound.address = vk.vkGetBufferDeviceAddress(device, &info) +
                        b.bound.offset;
      // The kernel's loads and stores promise their scalar's alignment.
      uint64_t scalarAlign = b.elementBytes & -b.elementBytes;
      if (b.bound.address % std::min<uint64_t>(scalarAlign, 8))
        fatal("kernel '" + kernel->name + "' argument " +
              std::to_string(b.argument) +
              " (bound by device address) starts at an address that is not "
              "a multiple of its element size");
      int64_t delta = int64_t(b.aligned) - int64_t(b.lo);
      if (b.rebasable && delta % int64_t(b.elementBytes) != 0)
        fatal("kernel '" + kernel->name + "' argument " +
              std::to_string(b.argument) +
              ": the memref's aligned pointer is not a multiple of its "
              "element size");
      b.bound.elementShift = delta / int64_t(b.elementBytes);
      continue;
    }
    uint64_t bindOffset = alignDown(b.bound.offset, alignment);
    if (bindOffset != b.bound.offset && !b.rebasable)
      fatal("kernel '" + kernel->name + "' argument at binding " +
            std::to_string(b.binding) + " starts at an address that is not a "
            "multiple of the device's minStorageBufferOffsetAlignment (" +
            std::to_string(alignment) +
            "); pass a memref with a dynamic layout or an aligned buffer");
    b.bound.offset = bindOffset;
    b.bound.range = b.hi - (base + bindOffset);
    if (b.bound.range > limits.maxStorageBufferRange)
      fatal("kernel '" + kernel->name + "' argument at binding " +
            std::to_string(b.binding) + " spans " +
            std::to_string(b.bound.range) + " bytes, above device '" +
            properties.deviceName + "''s limit of " +
            std::to_string(limits.maxStorageBufferRange) +
            " (maxStorageBufferRange) for a storage-buffer descriptor; " +
            (deviceAddresses
                 ? "compile with --buffer-device-address=always to bind it "
                   "by address instead"
                 : "the device has no bufferDeviceAddress to bind it by "
                   "address instead"));
    if (b.rebasable) {
      int64_t delta = int64_t(b.aligned) - int64_t(base + bindOffset);
      if (delta % int64_t(b.elementBytes) != 0)
        fatal("kernel '" + kernel->name + "' argument at binding " +
              std::to_string(b.binding) +
              ": the memref's aligned pointer is not a multiple of its "
              "element size");
      b.bound.elementShift = delta / int64_t(b.elementBytes);
    }
  }

  // Metadata of dynamic memrefs into push constants.
  unsigned indexBytes = kernel->module->info.indexBits / 8;
  for (BufferArg &b : buffers) {
    if (b.byAddress)
      writePC(b.pushConstantOffset, &b.bound.address, 8);
    if (!b.rebasable)
      continue;
    uint32_t metadataOffset = b.pushConstantOffset + (b.byAddress ? 8 : 0);
    std::vector<int64_t> fields;
    fields.push_back(b.empty ? 0 : b.offset + b.bound.elementShift);
    fields.insert(fields.end(), b.sizes.begin(), b.sizes.end());
    fields.insert(fields.end(), b.strides.begin(), b.strides.end());
    for (size_t f = 0; f < fields.size(); ++f) {
      if (indexBytes == 4) {
        if (fields[f] > INT32_MAX || fields[f] < INT32_MIN)
          fatal("kernel '" + kernel->name + "' argument at binding " +
                std::to_string(b.binding) + " has an offset, size or stride "
                "of " + std::to_string(fields[f]) +
                ", which does not fit the kernel's 32-bit index (compile with "
                "use-64bit-index)");
        int32_t v = int32_t(fields[f]);
        writePC(metadataOffset + f * 4, &v, 4);
      } else {
        writePC(metadataOffset + f * 8, &fields[f], 8);
      }
    }
  }

  // Record and submit.
  Submission *s = acquireSubmission(std::max<size_t>(buffers.size(), 1));
  s->segments = std::move(segments);
  std::vector<VkDescriptorSet> sets(kernel->setLayouts.size());
  if (!sets.empty()) {
    VkDescriptorSetAllocateInfo alloc{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = s->pool;
    alloc.descriptorSetCount = sets.size();
    alloc.pSetLayouts = kernel->setLayouts.data();
    check(vk.vkAllocateDescriptorSets(device, &alloc, sets.data()),
          "vkAllocateDescriptorSets");
  }
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].byAddress)
      continue;
    infos[i] = {buffers[i].bound.buffer, buffers[i].bound.offset,
                buffers[i].bound.range};
    VkWriteDescriptorSet &w = writes.emplace_back();
    w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = sets[buffers[i].set];
    w.dstBinding = buffers[i].binding;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &infos[i];
  }
  if (!writes.empty())
    vk.vkUpdateDescriptorSets(device, writes.size(), writes.data(), 0, nullptr);

  beginRecording(s->cmd);
  // Order after everything submitted before (one queue, many submissions).
  memoryBarrier(s->cmd,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                    VK_ACCESS_HOST_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  if (timing)
    writeTimestamp(s, 0);
  vk.vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                       kernel->pipeline);
  if (!sets.empty())
    vk.vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                               kernel->layout, 0, sets.size(), sets.data(), 0,
                               nullptr);
  if (!pushConstants.empty())
    vk.vkCmdPushConstants(s->cmd, kernel->layout, VK_SHADER_STAGE_COMPUTE_BIT,
                          0, pushConstants.size(), pushConstants.data());
  vk.vkCmdDispatch(s->cmd, grid[0], grid[1], grid[2]);
  if (timing)
    writeTimestamp(s, 1);
  memoryBarrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
  check(vk.vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
  s->kernel = kernel->name;
  s->timed = timing;
  checkValidation();
  submit(s, stream ? stream : &defaultStream_);
  ++stats.launches;
}
