//===- Context.cpp - Instance, device, submissions, launches --------------===//
//
// The Context opens the instance and the device, holds the units over it
// (Memory: allocations and staging; Executables: modules, kernels and
// pipelines) and does what needs more than one of them: copies and fills,
// submissions and streams, and launches. Everything is created once and
// reused; command buffers, fences and descriptor pools are recycled with
// their submissions. A launch records one command buffer and submits it;
// the stream's synchronize waits for it and finishes host-memory
// bookkeeping.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "../DeviceChoice.h"
#include "../EnvFlag.h"
#include "../Format.h"
#include "../KernelArgs.h"
#include "../Ranges.h"
#include "../Timeout.h"
#include "ValidateSPIRV.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sys/mman.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::vkrt;
using container::ArgKind;
using container::ScalarType;

Status kiln::vkrt::vkStatus(VkResult result, const char *call, const char *file,
                            int line) {
  if (result == VK_SUCCESS)
    return Status::success();
  rt::ErrorKind kind = rt::ErrorKind::Driver;
  std::string message =
      std::string(call) + " failed: " + vk::resultName(result);
  bool lost = result == VK_ERROR_DEVICE_LOST;
  if (lost) {
    kind = rt::ErrorKind::DeviceLost;
    message += " (the device was lost; a kernel may have faulted or run too "
               "long)";
  } else if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
             result == VK_ERROR_OUT_OF_HOST_MEMORY) {
    kind = rt::ErrorKind::OutOfMemory;
  } else if (result == VK_ERROR_FEATURE_NOT_PRESENT ||
             result == VK_ERROR_EXTENSION_NOT_PRESENT ||
             result == VK_ERROR_LAYER_NOT_PRESENT) {
    kind = rt::ErrorKind::Unsupported;
  }
  Status error = rt::makeCallError(kind, std::move(message), call,
                                   vk::resultName(result), result, file, line);
  // Every later call fails with it (callers hold the runtime's lock).
  if (lost && !Context::get().broken)
    Context::get().broken = error;
  return error;
}

using rt::envFlag;

static uint64_t alignDown(uint64_t v, uint64_t a) { return v / a * a; }

using rt::quotedList;

Status Context::usable() const {
  if (broken)
    return broken;
  if (torndown)
    return KILN_ERROR(InvalidArgument,
                      "the Vulkan runtime was used after it shut down");
  return Status::success();
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

static VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  auto *context = static_cast<Context *>(user);
  const char *message = data && data->pMessage ? data->pMessage : "";
  bool fromPrintf = context->printfOn && data && data->pMessageIdName &&
                    std::strstr(data->pMessageIdName, "DEBUG-PRINTF");
  if (fromPrintf &&
      severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
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

Expected<std::string> Context::writePrintfSettings() {
  if (const char *v = std::getenv("KILN_VULKAN_PRINTF_BUFFER")) {
    char *end = nullptr;
    unsigned long long bytes = std::strtoull(v, &end, 10);
    if (!*v || *end || bytes < 1024 || bytes > (1ull << 31))
      return KILN_ERROR(InvalidArgument,
                        std::string("KILN_VULKAN_PRINTF_BUFFER='") + v +
                            "' is not a size in bytes from 1024 to "
                            "2147483648");
    printfBufferBytes = bytes;
  }
  // The validation layer takes the size of its printf buffer (1024 bytes by
  // default: 28 lines of one number) from a settings file only; a user's
  // own VK_LAYER_SETTINGS_PATH wins.
  if (std::getenv("VK_LAYER_SETTINGS_PATH")) {
    printfBufferBytes = 0; // The user's settings file says.
    return std::string();
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
  return std::move(dir);
}

Status Context::initInstance() {
  if (instance)
    return Status::success();
  KILN_TRY(usable());
  std::string error;
  if (!vk.openLoader(error))
    return KILN_ERROR(Driver, error);
  validation = envFlag("KILN_VULKAN_VALIDATION");
  queue.envTiming = envFlag("KILN_VULKAN_TIMING");
  if (std::string error; !kiln::rt::readTimeout(queue.timeoutSeconds, error))
    return KILN_ERROR(InvalidArgument, error);
  if (const char *v = std::getenv("KILN_VULKAN_TIMING"))
    queue.upstreamTiming = std::strcmp(v, "upstream") == 0;

  uint32_t apiVersion = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion)
    vk.vkEnumerateInstanceVersion(&apiVersion);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "kiln";
  app.pEngineName = "kiln";
  app.apiVersion = std::min<uint32_t>(apiVersion, VK_API_VERSION_1_3);
  if (app.apiVersion < VK_API_VERSION_1_1)
    return KILN_ERROR(
        Unsupported,
        "the Vulkan loader supports only Vulkan 1.0; Kiln needs 1.1");

  const char *printfEnv = std::getenv("KILN_VULKAN_PRINTF");
  printfOff = printfEnv && *printfEnv && !envFlag("KILN_VULKAN_PRINTF");
  printfOn = !printfOff && (printfRequested || envFlag("KILN_VULKAN_PRINTF"));
  executables.validateSPIRV = !std::getenv("KILN_VULKAN_VALIDATE_SPIRV") ||
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
      return KILN_ERROR(
          Unsupported,
          std::string(validation ? "validation was requested"
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
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
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
    KILN_ASSIGN_OR_RETURN(settingsDir, writePrintfSettings());
  }
  info.pApplicationInfo = &app;
  info.enabledLayerCount = layers.size();
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance created = VK_NULL_HANDLE;
  VkResult result = vk.vkCreateInstance(&info, nullptr, &created);
  if (!settingsDir.empty()) {
    unsetenv("VK_LAYER_SETTINGS_PATH");
    std::remove((settingsDir + "/vk_layer_settings.txt").c_str());
    rmdir(settingsDir.c_str());
  }
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return rt::makeCallError(
        rt::ErrorKind::Driver,
        "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan "
        "driver is installed; on Debian, mesa-vulkan-drivers provides the "
        "lavapipe CPU driver)",
        "vkCreateInstance", "VK_ERROR_INCOMPATIBLE_DRIVER", result, __FILE__,
        __LINE__);
  KILN_VK(result, "vkCreateInstance");
  instance = created;
  ++stats.instances;
  // Exit handlers run in reverse order of registration, and the driver and
  // the layers the loader has just opened registered their static
  // destructors: teardown must come before those (the validation layer's
  // debug printf crashes lavapipe's vkDestroyDevice otherwise).
  static bool exitHandler = false;
  if (!exitHandler)
    std::atexit([] {
      // An entry point reports an error and exits after releasing the
      // lock: other threads may be inside the runtime. Teardown waits for
      // them (unless this thread holds the lock already).
      Context &context = Context::get();
      if (Queue::heldLock && Queue::heldLock->owns_lock()) {
        context.teardown();
        return;
      }
      std::lock_guard<std::mutex> lock(context.mutex);
      context.teardown();
    });
  exitHandler = true;
  // What fails from here leaves no instance behind: a later call starts
  // over.
  ScopeExit dropInstance([&] {
    if (messenger && vk.vkDestroyDebugUtilsMessengerEXT)
      vk.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    messenger = VK_NULL_HANDLE;
    if (vk.vkDestroyInstance)
      vk.vkDestroyInstance(instance, nullptr);
    instance = VK_NULL_HANDLE;
  });
  if (!vk.loadInstance(instance, error))
    return KILN_ERROR(Driver, error);
  if (validation || printfOn)
    KILN_TRY(createMessenger());
  dropInstance.dismiss();
  return Status::success();
}

Status Context::createMessenger() {
  if (!vk.vkCreateDebugUtilsMessengerEXT)
    return KILN_ERROR(Unsupported, "the validation layer was loaded but "
                                   "VK_EXT_debug_utils is unavailable");
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
  KILN_VK(
      vk.vkCreateDebugUtilsMessengerEXT(instance, &info, nullptr, &messenger),
      "vkCreateDebugUtilsMessengerEXT");
  return Status::success();
}

Status Device::checkValidation() {
  if (unsigned n = validationMessages.exchange(0)) {
    // Reported here, not again at exit.
    return KILN_ERROR(Validation, "the Khronos validation layer reported " +
                                      std::to_string(n) + " message(s)");
  }
  return Status::success();
}

Expected<std::vector<VkPhysicalDevice>> Context::physicalDevices() {
  KILN_TRY(initInstance());
  uint32_t n = 0;
  KILN_VK(vk.vkEnumeratePhysicalDevices(instance, &n, nullptr),
          "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(n);
  KILN_VK(vk.vkEnumeratePhysicalDevices(instance, &n, devices.data()),
          "vkEnumeratePhysicalDevices");
  devices.resize(n);
  return std::move(devices);
}

void Context::setDefaultDevice(int index) {
  if (device && index != requestedDevice)
    std::fprintf(stderr,
                 "kiln-vulkan: mgpuSetDefaultDevice(%d) after the device was "
                 "created; keeping the current device\n",
                 index);
  requestedDevice = index;
}

Expected<VkPhysicalDevice> Context::choosePhysicalDevice() {
  KILN_ASSIGN_OR_RETURN(std::vector<VkPhysicalDevice> devices,
                        physicalDevices());
  if (devices.empty())
    return KILN_ERROR(
        Driver,
        "no Vulkan device found (vkEnumeratePhysicalDevices returned none)");
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
      return KILN_ERROR(
          InvalidArgument,
          "device index " + choice +
              " is out of range; the devices are:" + rt::listDevices(names));
    case rt::DeviceMatch::NoSuchName:
      return KILN_ERROR(InvalidArgument,
                        "no Vulkan device named '" + choice +
                            "'; the devices are:" + rt::listDevices(names));
    }
  }
  const VkPhysicalDeviceType order[] = {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
                                        VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
                                        VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU,
                                        VK_PHYSICAL_DEVICE_TYPE_CPU,
                                        VK_PHYSICAL_DEVICE_TYPE_OTHER};
  for (VkPhysicalDeviceType type : order)
    for (size_t i = 0; i < devices.size(); ++i)
      if (properties[i].deviceType == type)
        return devices[i];
  return devices.front();
}

Status Context::initDevice() {
  if (device)
    return Status::success();
  KILN_TRY(usable());
  KILN_TRY(initInstance());
  KILN_ASSIGN_OR_RETURN(physical, choosePhysicalDevice());
  vk.vkGetPhysicalDeviceProperties(physical, &properties);
  vk.vkGetPhysicalDeviceMemoryProperties(physical, &memoryProperties);
  if (properties.apiVersion < VK_API_VERSION_1_1)
    return KILN_ERROR(Unsupported,
                      std::string("device '") + properties.deviceName +
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
    return KILN_ERROR(Unsupported, std::string("device '") +
                                       properties.deviceName +
                                       "' has no compute queue");
  timestamps = families[queueFamily].timestampValidBits > 0 &&
               properties.limits.timestampPeriod > 0;
  if (queue.envTiming && !timestamps)
    std::fprintf(stderr,
                 "kiln-vulkan: device '%s' has no compute timestamps; "
                 "--print-timing reports host time only\n",
                 properties.deviceName);
  queue.timing = (queue.envTiming || queue.timingCallback) && timestamps;

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
  if (!nonSemanticInfo && has(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME)) {
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
  // Float atomics (memref.atomic_rmw addf), where the device has them.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  bool atomicFloatExtension = !capabilities.knownOnlyCore &&
                              has(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (atomicFloatExtension) {
    VkPhysicalDeviceFeatures2 query{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    query.pNext = &atomicFloat;
    vk.vkGetPhysicalDeviceFeatures2(physical, &query);
    atomicFloat.pNext = nullptr;
    capabilities.atomicFloat = atomicFloat;
  }
  if (api >= VK_API_VERSION_1_1) {
    VkPhysicalDeviceSubgroupProperties subgroup{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props2{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props2.pNext = &subgroup;
    VkPhysicalDeviceFloatControlsProperties floatControls{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
    if (api >= VK_API_VERSION_1_2)
      subgroup.pNext = &floatControls;
    vk.vkGetPhysicalDeviceProperties2(physical, &props2);
    if (api >= VK_API_VERSION_1_2) {
      capabilities.floatControls = floatControls;
      capabilities.floatControls.pNext = nullptr;
      capabilities.floatControlsKnown = true;
    }
    capabilities.subgroupOperations = subgroup.supportedOperations;
    capabilities.subgroupInCompute =
        (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }
  if (const char *hide = std::getenv("KILN_VULKAN_HIDE_FEATURES")) {
    std::string error;
    if (!hideFeatures(hide, capabilities, error))
      return KILN_ERROR(InvalidArgument, error);
    bool all = !capabilities.knownOnlyCore;
    storeFeatures(capabilities, features.features, all ? &features11 : nullptr,
                  all ? &features12 : nullptr, all ? &features13 : nullptr);
  }
  if (atomicFloatExtension) {
    // Enabled as kernels may use them, less what was hidden.
    atomicFloat = capabilities.atomicFloat;
    atomicFloat.pNext = features.pNext;
    features.pNext = &atomicFloat;
    extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
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
      return KILN_ERROR(Unsupported,
                        std::string("robust buffer access was asked for "
                                    "(KILN_VULKAN_ROBUST), but device '") +
                            properties.deviceName +
                            "' does not offer robustBufferAccess");
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
  // Created into a local: a failed call leaves its output undefined.
  VkDevice created = VK_NULL_HANDLE;
  KILN_VK(vk.vkCreateDevice(physical, &info, nullptr, &created),
          "vkCreateDevice");
  device = created;
  ++stats.devices;
  // What fails from here leaves no device behind: a later call starts over.
  ScopeExit dropDevice([&] { destroyDeviceObjects(); });
  vk.vkGetDeviceQueue(device, queueFamily, 0, &computeQueue);

  KILN_TRY(executables.openCache());
  KILN_TRY(queue.open());
  // Bound for memrefs with no elements (a descriptor needs a real buffer).
  bool visible;
  KILN_TRY(memory.createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0,
                               emptyBuffer, emptyMemory, visible,
                               "the runtime's empty buffer"));
  dropDevice.dismiss();
  return Status::success();
}

void Context::destroyDevice() {
  // Every object is owned (Owned<>); destroying the owners releases them,
  // in this order, before the device.
  queue.releaseAll();
  executables.releaseAll();
  memory.releaseAll();
  destroyDeviceObjects();
}

void Context::destroyDeviceObjects() {
  emptyBuffer.reset();
  emptyMemory.reset();
  queue.close();
  executables.closeCache();
  vk.vkDestroyDevice(device, nullptr);
  device = VK_NULL_HANDLE;
}

void Context::teardown() {
  if (torndown)
    return;
  torndown = true;
  // After a timeout the device still runs the work: waiting would hang,
  // and destroying what it uses is invalid. The process is ending anyway.
  if (stuck)
    return;
  if (device) {
    vk.vkDeviceWaitIdle(device);
    destroyDevice();
  }
  if (messenger)
    vk.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  if (instance)
    vk.vkDestroyInstance(instance, nullptr);
  instance = VK_NULL_HANDLE;
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

Expected<void *> Context::allocate(uint64_t size, bool hostShared) {
  KILN_TRY(initDevice());
  return memory.allocate(size, hostShared);
}

Status Context::free(void *ptr) {
  if (!ptr || torndown)
    return Status::success();
  if (!memory.isAllocation(ptr))
    return KILN_ERROR(InvalidArgument,
                      "gpu.dealloc of a pointer that gpu.alloc did not return");
  KILN_TRY(drainAll());
  // Looked up again: the wait released the lock.
  if (!memory.isAllocation(ptr))
    return KILN_ERROR(InvalidArgument, "gpu.dealloc of a pointer that another "
                                       "thread freed meanwhile");
  return memory.release(ptr);
}

Status Context::setTimingCallback(KilnTimingCallback callback, void *user) {
  KILN_TRY(drainAll());
  queue.timingCallback = callback;
  queue.timingUser = user;
  if (device)
    queue.timing = (queue.envTiming || queue.timingCallback) && timestamps;
  return Status::success();
}

Expected<double> Context::deviceCopy(void *dst, const void *src, size_t size) {
  KILN_TRY(initDevice());
  // Looked up after the wait, which releases the lock (another thread may
  // free meanwhile).
  KILN_TRY(drainAll());
  auto d = reinterpret_cast<uintptr_t>(dst);
  auto s = reinterpret_cast<uintptr_t>(src);
  const Allocation *da, *sa;
  KILN_TRY(memory.locate(dst, size, "kilnVulkanDeviceCopy's destination", da));
  KILN_TRY(memory.locate(src, size, "kilnVulkanDeviceCopy's source", sa));
  if (!da || !sa || size == 0)
    return KILN_ERROR(InvalidArgument,
                      "kilnVulkanDeviceCopy: both sides must be non-empty "
                      "ranges of device allocations (mgpuMemAlloc)");
  return queue.runNow(
      [&](VkCommandBuffer cmd) {
        VkBufferCopy region{s - sa->base, d - da->base, size};
        vk.vkCmdCopyBuffer(cmd, sa->buffer.get(), da->buffer.get(), 1, &region);
      },
      /*timed=*/true);
}

Status Context::copy(void *dst, const void *src, size_t size) {
  KILN_TRY(initDevice());
  if (size == 0)
    return Status::success();
  // Looked up after the wait, which releases the lock.
  KILN_TRY(drainAll());
  auto d = reinterpret_cast<uintptr_t>(dst);
  auto s = reinterpret_cast<uintptr_t>(src);
  if (!dst || !src)
    return KILN_ERROR(InvalidArgument, "gpu.memcpy of " + std::to_string(size) +
                                           " bytes with a null pointer");
  const Allocation *da, *sa;
  KILN_TRY(memory.locate(dst, size, "gpu.memcpy's destination", da));
  KILN_TRY(memory.locate(src, size, "gpu.memcpy's source", sa));
  if (!da && !sa) {
    std::memmove(dst, src, size);
    return Status::success();
  }
  // Host-visible device memory: copy on the host.
  if ((!da || da->mapped) && (!sa || sa->mapped)) {
    void *to = da ? static_cast<char *>(da->mapped) + (d - da->base) : dst;
    const void *from =
        sa ? static_cast<char *>(sa->mapped) + (s - sa->base) : src;
    std::memmove(to, from, size);
    return Status::success();
  }
  if (da && sa) {
    return queue
        .runNow([&](VkCommandBuffer cmd) {
          VkBufferCopy region{s - sa->base, d - da->base, size};
          vk.vkCmdCopyBuffer(cmd, sa->buffer.get(), da->buffer.get(), 1,
                             &region);
        })
        .takeError();
  }
  // One side is host memory: go through a host-visible staging buffer,
  // released on every path.
  Owned<VkBuffer> staging;
  Owned<VkDeviceMemory> stagingMemory;
  void *mapped;
  KILN_TRY(
      memory.createStaging(size, staging, stagingMemory, mapped,
                           "the staging buffer of an mgpuMemcpy (gpu.memcpy)"));
  ++stats.stagedCopies;
  if (da)
    std::memcpy(mapped, src, size);
  Status copied = queue
                      .runNow([&](VkCommandBuffer cmd) {
                        VkBufferCopy region{da ? 0 : s - sa->base,
                                            da ? d - da->base : 0, size};
                        vk.vkCmdCopyBuffer(
                            cmd, da ? staging.get() : sa->buffer.get(),
                            da ? da->buffer.get() : staging.get(), 1, &region);
                      })
                      .takeError();
  if (copied) {
    // A copy that timed out still uses the staging buffer: never free it.
    if (stuck) {
      staging.release();
      stagingMemory.release();
    }
    return copied;
  }
  if (!da)
    std::memcpy(dst, mapped, size);
  return Status::success();
}

Status Context::fill(void *dst, uint32_t pattern, unsigned patternBytes,
                     size_t count) {
  KILN_TRY(initDevice());
  if (patternBytes == 0 || count > SIZE_MAX / patternBytes)
    return KILN_ERROR(InvalidArgument, "gpu.memset of " +
                                           std::to_string(count) + " " +
                                           std::to_string(patternBytes) +
                                           "-byte elements overflows a size");
  size_t size = count * patternBytes;
  if (size == 0)
    return Status::success();
  if (!dst)
    return KILN_ERROR(InvalidArgument, "gpu.memset of " + std::to_string(size) +
                                           " bytes with a null pointer");
  // Looked up after the wait, which releases the lock.
  KILN_TRY(drainAll());
  auto d = reinterpret_cast<uintptr_t>(dst);
  const Allocation *da;
  KILN_TRY(memory.locate(dst, size, "gpu.memset", da));
  auto fillHost = [&](void *to) {
    for (size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<char *>(to) + i * patternBytes, &pattern,
                  patternBytes);
  };
  if (!da) {
    fillHost(dst);
    return Status::success();
  }
  if (da->mapped) {
    fillHost(static_cast<char *>(da->mapped) + (d - da->base));
    return Status::success();
  }
  uint64_t offset = d - da->base;
  if (patternBytes == 2)
    pattern = (pattern & 0xFFFF) | (pattern << 16);
  if (offset % 4 == 0 && size % 4 == 0) {
    return queue
        .runNow([&](VkCommandBuffer cmd) {
          vk.vkCmdFillBuffer(cmd, da->buffer.get(), offset, size, pattern);
        })
        .takeError();
  }
  std::vector<uint8_t> host(size);
  fillHost(host.data());
  return copy(dst, host.data(), size);
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

Expected<Module *> Context::loadModule(const void *data, size_t size) {
  // The JIT and AOT hosts load each embedded binary once, but a host that
  // loads per launch must not pay for it.
  if (Module *same = executables.reuse(data, size))
    return same;
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<Module> module,
                        Executables::inspect(data, size));
  // A module that prints turns debug printf on if it is loaded before the
  // instance exists. The JIT and AOT hosts load every module before main
  // runs, so the device (and the instance) waits for the first kernel
  // lookup: a program whose later module prints gets debug printf too.
  if (module->debugPrintf && !instance)
    printfRequested = true;
  // A module the device refuses is not kept.
  if (device)
    KILN_TRY(createShader(module.get()));
  return executables.keep(std::move(module));
}

Status Context::createShader(Module *module) {
  KILN_TRY(initDevice());
  return executables.createShader(module, printfOn, printfOff);
}

Status Context::unloadModule(Module *module) {
  // (After teardown, module destructors of JIT code still call in.)
  if (!module || torndown)
    return Status::success();
  return executables.unload(module);
}

Expected<Kernel *> Context::getKernel(Module *module, const char *name) {
  if (module && name && !module->shader) {
    KILN_TRY(checkModule(module, "mgpuModuleGetFunction"));
    KILN_TRY(createShader(module));
  }
  return executables.getKernel(module, name);
}

Status Context::rebuildPipeline(Kernel *kernel, size_t rawBuffers) {
  if (kernel->pipeline) {
    KILN_TRY(drainAll());
    // Another thread may have rebuilt it while the lock was released.
    if (kernel->rawBuffers == rawBuffers)
      return Status::success();
  }
  return executables.createPipeline(kernel, rawBuffers);
}

Status Context::checkModule(const Module *module, const char *what) const {
  return executables.checkModule(module, what);
}

Status Context::checkKernel(const Kernel *kernel, const char *what) const {
  return executables.checkKernel(kernel, what);
}

//===----------------------------------------------------------------------===//
// Submissions and streams
//===----------------------------------------------------------------------===//

Status Context::synchronize(Stream *stream) {
  if (!device || torndown)
    return Status::success();
  return queue.synchronize(stream);
}

Status Context::drainAll() {
  if (!device)
    return Status::success();
  return queue.drainAll();
}

void Context::record(Event *, Stream *) {
  // All work goes to one queue, ordered by barriers; an event completes when
  // everything submitted before it has.
}

Status Context::synchronize(Event *) { return drainAll(); }

Status Context::checkStream(const Stream *stream, const char *what) const {
  return queue.checkStream(stream, what);
}

Stream *Context::createStream() { return queue.createStream(); }

Status Context::destroyStream(Stream *stream) {
  if (!stream || torndown)
    return Status::success();
  return queue.destroyStream(stream);
}

//===----------------------------------------------------------------------===//
// Host memory for a launch
//===----------------------------------------------------------------------===//

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
  /// The kernel reads its offset from push constants, so the binding may
  /// start below the first element.
  bool rebasable = false;
  /// The kernel reads {offset, sizes, strides} from push constants.
  bool metadata = false;
  bool empty = false;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
  uint32_t pushConstantOffset = container::kNoPushConstant;
  /// Bound by device address: the address goes at pushConstantOffset, the
  /// metadata (if any) 8 bytes after it.
  bool byAddress = false;
  Binding bound;
  int segment = -1;
};
} // namespace

using rt::readParam;

Status Context::launch(Kernel *kernel, const intptr_t grid[3],
                       const intptr_t block[3], int64_t dynamicSharedBytes,
                       Stream *stream, void **params, size_t paramsCount) {
  if (!kernel)
    return KILN_ERROR(InvalidArgument, "mgpuLaunchKernel with a null function");
  const container::KernelInfo *info = kernel->info;
  const VkPhysicalDeviceLimits &limits = properties.limits;
  const char *axes = "xyz";
  // An empty grid is refused, as CUDA refuses it: a launch that silently
  // does nothing hides a wrong size computation.
  for (int i = 0; i < 3; ++i)
    if (grid[i] < 1 || uint64_t(grid[i]) > limits.maxComputeWorkGroupCount[i])
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name + "' launched with " +
                            std::to_string(grid[i]) + " workgroups in " +
                            axes[i] + "; device '" + properties.deviceName +
                            "' allows 1 to " +
                            std::to_string(limits.maxComputeWorkGroupCount[i]) +
                            " (maxComputeWorkGroupCount)");
  if (info)
    for (int i = 0; i < 3; ++i)
      if (uint64_t(block[i]) != info->workgroupSize[i])
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + kernel->name + "' was compiled for workgroup size (" +
                std::to_string(info->workgroupSize[0]) + ", " +
                std::to_string(info->workgroupSize[1]) + ", " +
                std::to_string(info->workgroupSize[2]) +
                ") but is launched with block size (" +
                std::to_string(block[0]) + ", " + std::to_string(block[1]) +
                ", " + std::to_string(block[2]) + ")");

  // Dynamic workgroup memory: the kernel's array is specialized to the
  // launch's size (whole elements, at least one), within the device's limit
  // together with the kernel's static workgroup memory.
  uint32_t elementBytes = info ? info->dynamicWorkgroupElementBytes : 0;
  uint32_t dynamicElements = 0;
  if (dynamicSharedBytes < 0)
    return KILN_ERROR(InvalidArgument, "kernel '" + kernel->name +
                                           "' launched with " +
                                           std::to_string(dynamicSharedBytes) +
                                           " bytes of dynamic shared memory");
  if (elementBytes == 0 && dynamicSharedBytes != 0)
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name + "' launched with " +
                          std::to_string(dynamicSharedBytes) +
                          " bytes of dynamic shared memory, but it has none "
                          "(no gpu.dynamic_shared_memory): a Vulkan kernel's "
                          "other workgroup memory is fixed when it is "
                          "compiled");
  if (elementBytes != 0) {
    uint64_t elements = std::max<uint64_t>(
        1, (uint64_t(dynamicSharedBytes) + elementBytes - 1) / elementBytes);
    uint64_t total = info->staticWorkgroupBytes + elements * elementBytes;
    if (total > limits.maxComputeSharedMemorySize)
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name + "' launched with " +
                            std::to_string(dynamicSharedBytes) +
                            " bytes of dynamic shared memory; with its " +
                            std::to_string(info->staticWorkgroupBytes) +
                            " bytes of static workgroup memory that is " +
                            std::to_string(total) + " bytes, above device '" +
                            properties.deviceName + "''s limit of " +
                            std::to_string(limits.maxComputeSharedMemorySize) +
                            " (maxComputeSharedMemorySize)");
    dynamicElements = uint32_t(elements);
  }

  // Decode the arguments.
  std::vector<BufferArg> buffers;
  std::vector<uint8_t> pushConstants(info ? info->pushConstantSize : 0);
  auto writePC = [&](uint32_t offset, const void *value,
                     size_t bytes) -> Status {
    if (uint64_t(offset) + bytes > pushConstants.size())
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name +
                            "' has a push-constant field outside its block; "
                            "the container is corrupt");
    std::memcpy(pushConstants.data() + offset, value, bytes);
    return Status::success();
  };
  if (info) {
    size_t expected = rt::paramCount(*info);
    if (paramsCount != expected)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name + "' takes " + std::to_string(expected) +
              " parameters (memrefs as allocated, aligned, offset, sizes, "
              "strides), but the launch passed " +
              std::to_string(paramsCount));
    size_t p = 0;
    for (const container::ArgInfo &a : info->args) {
      if (a.kind == ArgKind::Scalar) {
        uint8_t field[8];
        unsigned bytes = 0;
        switch (rt::encodeScalar(a, params[p++], field, bytes)) {
        case rt::ScalarEncoding::Ok:
          break;
        case rt::ScalarEncoding::IndexOverflow:
          return KILN_ERROR(
              InvalidArgument,
              "kernel '" + kernel->name + "' argument " +
                  std::to_string(&a - info->args.data()) +
                  " (index) does not fit the kernel's 32-bit index (compile "
                  "with use-64bit-index)");
        case rt::ScalarEncoding::UnknownType:
          return KILN_ERROR(
              InvalidArgument,
              "kernel '" + kernel->name +
                  "' has an argument of unknown scalar type; the container is "
                  "corrupt");
        }
        KILN_TRY(writePC(a.pushConstantOffset, field, bytes));
        continue;
      }
      BufferArg b;
      b.argument = &a - info->args.data();
      b.set = a.set;
      b.binding = a.binding;
      rt::MemRefParams m = rt::readMemRef(a, params + p);
      if (std::string why = rt::checkBaseAlignment(a, m); !why.empty())
        return KILN_ERROR(InvalidArgument,
                          "kernel '" + kernel->name + "' argument " +
                              std::to_string(b.argument) + " " + why);
      b.elementBytes = m.elementBytes;
      b.aligned = m.aligned;
      b.offset = m.offset;
      b.sizes = std::move(m.sizes);
      b.strides = std::move(m.strides);
      b.lo = m.lo;
      b.hi = m.hi;
      b.empty = m.empty;
      p += 3 + 2 * a.rank;
      b.pushConstantOffset = a.pushConstantOffset;
      b.byAddress = container::isAddressKind(a.kind);
      b.rebasable = a.hasRebasableOffset();
      b.metadata = a.hasMetadata();
      buffers.push_back(std::move(b));
    }
  } else {
    if (paramsCount % 2 != 0)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name +
              "' (raw SPIR-V) takes {pointer, size} pairs, but the launch "
              "passed " +
              std::to_string(paramsCount) + " parameters");
    if (kernel->rawBuffers != paramsCount / 2)
      KILN_TRY(rebuildPipeline(kernel, paramsCount / 2));
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

  // A memref beyond the device's descriptor range (bound from an aligned
  // offset below its first byte): the kernel's address variant, if it has
  // one, binds it by device address (docs/abi.md).
  if (info && info->addressVariant && deviceAddresses) {
    uint64_t range = limits.maxStorageBufferRange;
    uint64_t slack = std::min<uint64_t>(
        std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1), range);
    if (std::any_of(buffers.begin(), buffers.end(), [&](const BufferArg &b) {
          return !b.byAddress && !b.empty && b.hi - b.lo > range - slack;
        })) {
      const container::KernelInfo &variant =
          kernel->module->info.kernels[info->addressVariant - 1];
      KILN_ASSIGN_OR_RETURN(Kernel * byAddress,
                            getKernel(kernel->module, variant.name.c_str()));
      return launch(byAddress, grid, block, dynamicSharedBytes, stream, params,
                    paramsCount);
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
    const Allocation *a;
    if (Status where = memory.locate(reinterpret_cast<const void *>(b.lo),
                                     b.hi - b.lo, "a memref", a))
      return KILN_ERROR(InvalidArgument, "kernel '" + kernel->name +
                                             "' argument " +
                                             std::to_string(b.argument) + ": " +
                                             where.message());
    if (a) {
      b.bound.buffer = a->buffer.get();
      b.bound.offset = b.lo - a->base;
      continue;
    }
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
      segments.push_back(std::move(seg));
    } else {
      segments.back().hi = std::max(segments.back().hi, b.hi);
    }
    b.segment = segments.size() - 1;
  }
  KILN_TRY(memory.mapSegments(segments, kernel->name));

  // Bind: descriptor offsets must be aligned; kernels that read their offset
  // from push constants absorb the difference.
  uint64_t alignment =
      std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1);
  for (BufferArg &b : buffers) {
    if (b.byAddress && !deviceAddresses)
      return KILN_ERROR(Unsupported,
                        "kernel '" + kernel->name +
                            "' binds a memref by buffer device "
                            "address, but device '" +
                            properties.deviceName +
                            "' has no bufferDeviceAddress; compile it with "
                            "--buffer-device-address=never");
    if (b.empty) {
      b.bound.buffer = emptyBuffer.get();
      b.bound.offset = 0;
      b.bound.range = 16;
      continue;
    }
    uintptr_t base = 0;
    if (b.segment >= 0) {
      b.bound.buffer = segments[b.segment].buffer.get();
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
      b.bound.address =
          vk.vkGetBufferDeviceAddress(device, &info) + b.bound.offset;
      // The kernel's loads and stores promise their scalar's alignment.
      uint64_t scalarAlign = b.elementBytes & -b.elementBytes;
      if (b.bound.address % std::min<uint64_t>(scalarAlign, 8))
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + kernel->name + "' argument " +
                std::to_string(b.argument) +
                " (bound by device address) starts at an address that is not "
                "a multiple of its element size");
      int64_t delta = int64_t(b.aligned) - int64_t(b.lo);
      if (b.rebasable && delta % int64_t(b.elementBytes) != 0)
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + kernel->name + "' argument " +
                std::to_string(b.argument) +
                ": the memref's aligned pointer is not a multiple of its "
                "element size");
      b.bound.elementShift = delta / int64_t(b.elementBytes);
      continue;
    }
    uint64_t bindOffset = alignDown(b.bound.offset, alignment);
    if (bindOffset != b.bound.offset && !b.rebasable)
      return KILN_ERROR(
          Unsupported,
          "kernel '" + kernel->name + "' argument at binding " +
              std::to_string(b.binding) +
              " starts at an address that is not a "
              "multiple of the device's minStorageBufferOffsetAlignment (" +
              std::to_string(alignment) +
              "); a memref of static shape or identity layout is bound at "
              "its first element: pass an aligned buffer, or give the "
              "memref a dynamic offset (strided<[...], offset: ?>)");
    b.bound.offset = bindOffset;
    b.bound.range = b.hi - (base + bindOffset);
    if (b.bound.range > limits.maxStorageBufferRange)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name + "' argument at binding " +
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
        return KILN_ERROR(
            InvalidArgument,
            "kernel '" + kernel->name + "' argument at binding " +
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
      KILN_TRY(writePC(b.pushConstantOffset, &b.bound.address, 8));
    if (!b.metadata)
      continue;
    uint32_t metadataOffset = b.pushConstantOffset + (b.byAddress ? 8 : 0);
    std::vector<int64_t> fields;
    fields.push_back(b.empty || !b.rebasable ? 0
                                             : b.offset + b.bound.elementShift);
    fields.insert(fields.end(), b.sizes.begin(), b.sizes.end());
    fields.insert(fields.end(), b.strides.begin(), b.strides.end());
    for (size_t f = 0; f < fields.size(); ++f) {
      if (indexBytes == 4) {
        if (fields[f] > INT32_MAX || fields[f] < INT32_MIN)
          return KILN_ERROR(InvalidArgument,
                            "kernel '" + kernel->name +
                                "' argument at binding " +
                                std::to_string(b.binding) +
                                " has an offset, size or stride "
                                "of " +
                                std::to_string(fields[f]) +
                                ", which does not fit the kernel's 32-bit "
                                "index (compile with "
                                "use-64bit-index)");
        int32_t v = int32_t(fields[f]);
        KILN_TRY(writePC(metadataOffset + f * 4, &v, 4));
      } else {
        KILN_TRY(writePC(metadataOffset + f * 8, &fields[f], 8));
      }
    }
  }

  VkPipeline pipeline = kernel->pipeline.get();
  if (dynamicElements) {
    KILN_ASSIGN_OR_RETURN(pipeline,
                          executables.sizedPipeline(kernel, dynamicElements));
  }

  // Record and submit.
  KILN_ASSIGN_OR_RETURN(Submission * s,
                        queue.acquire(std::max<size_t>(buffers.size(), 1)));
  // Until it is submitted, a failure returns it (and releases the host
  // memory it holds without copying back).
  ScopeExit unused([&] { queue.giveBack(s); });
  s->segments = std::move(segments);
  std::vector<VkDescriptorSet> sets(kernel->setLayouts.size());
  if (!sets.empty()) {
    std::vector<VkDescriptorSetLayout> layouts;
    for (const Owned<VkDescriptorSetLayout> &layout : kernel->setLayouts)
      layouts.push_back(layout.get());
    VkDescriptorSetAllocateInfo alloc{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = s->pool.get();
    alloc.descriptorSetCount = sets.size();
    alloc.pSetLayouts = layouts.data();
    KILN_VK(vk.vkAllocateDescriptorSets(device, &alloc, sets.data()),
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

  KILN_TRY(queue.begin(s->cmd));
  // Order after everything submitted before (one queue, many submissions).
  queue.memoryBarrier(
      s->cmd,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
          VK_PIPELINE_STAGE_HOST_BIT,
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
          VK_ACCESS_HOST_WRITE_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  if (queue.timing)
    queue.writeTimestamp(s, 0);
  vk.vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (!sets.empty())
    vk.vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                               kernel->layout.get(), 0, sets.size(),
                               sets.data(), 0, nullptr);
  if (!pushConstants.empty())
    vk.vkCmdPushConstants(s->cmd, kernel->layout.get(),
                          VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstants.size(),
                          pushConstants.data());
  vk.vkCmdDispatch(s->cmd, grid[0], grid[1], grid[2]);
  if (queue.timing)
    queue.writeTimestamp(s, 1);
  queue.memoryBarrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                      VK_ACCESS_HOST_READ_BIT);
  KILN_VK(vk.vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
  s->kernel = kernel->name;
  s->timed = queue.timing;
  KILN_TRY(checkValidation());
  KILN_TRY(queue.submit(s, stream ? stream : queue.defaultStream()));
  unused.dismiss();
  ++stats.launches;
  return Status::success();
}
