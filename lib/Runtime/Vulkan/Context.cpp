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
#include "../Timeout.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <unistd.h>

using namespace kiln;
using namespace kiln::vkrt;

Status kiln::vkrt::vkStatus(VkResult result, const char *call, const char *file,
                            int line) {
  if (result == VK_SUCCESS)
    return Status::success();
  rt::ErrorKind kind = rt::ErrorKind::Driver;
  std::string message =
      std::string(call) + " failed: " + vk::resultName(result);
  if (result == VK_ERROR_DEVICE_LOST) {
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
  return rt::makeCallError(kind, std::move(message), call,
                           vk::resultName(result), result, file, line);
}

using rt::envFlag;

Status Context::usable() const {
  if (broken)
    return broken;
  if (torndown)
    return KILN_ERROR(InvalidArgument,
                      "the Vulkan runtime was used after it shut down");
  return Status::success();
}

namespace {
/// Every Context alive, for the exit handler. Never destroyed: the handler
/// runs after static destructors may have.
struct LiveContexts {
  std::mutex mutex; ///< Taken before any Context's own.
  std::set<Context *> all;
  /// Validation messages of Contexts destroyed before exit that no call
  /// returned: they fail the process at exit as a live one's do.
  unsigned leftMessages = 0;
  bool tornDown = false; ///< The exit handler ran.
};

LiveContexts &live() {
  static LiveContexts *contexts = new LiveContexts();
  return *contexts;
}

/// A module that prints was loaded before some Context's instance existed:
/// every Context made after it turns debug printf on too (a device list
/// loads a module on its other devices only at their first launch there).
std::atomic<bool> printfRequestedByAny{false};

/// Serialises instance creation: it sets VK_LAYER_SETTINGS_PATH in the
/// process's environment for the layer to read, then unsets it.
std::mutex instanceCreation;
} // namespace

Context::Context(rt::DevicePlace where) {
  place = std::move(where);
  LiveContexts &l = live();
  std::lock_guard<std::mutex> guard(l.mutex);
  l.all.insert(this);
}

Context::~Context() {
  LiveContexts &l = live();
  {
    std::lock_guard<std::mutex> guard(l.mutex);
    l.all.erase(this);
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (unsigned n = teardown()) {
    std::lock_guard<std::mutex> guard(l.mutex);
    l.leftMessages += n;
  }
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

Status Context::readSettings() {
  validation = rt::settingFlag(options.validation, "KILN_VULKAN_VALIDATION");
  queue.envTiming = rt::settingFlag(options.timing, "KILN_VULKAN_TIMING");
  if (std::string error;
      !kiln::rt::readTimeout(queue.timeoutSeconds, error,
                             rt::settingText(options.timeout, "KILN_TIMEOUT")))
    return KILN_ERROR(InvalidArgument, error);
  if (const char *v =
          options.timing ? nullptr : std::getenv("KILN_VULKAN_TIMING"))
    queue.upstreamTiming = std::strcmp(v, "upstream") == 0;
  std::optional<bool> printfSetting = options.printf;
  if (const char *v = std::getenv("KILN_VULKAN_PRINTF");
      !printfSetting && v && *v)
    printfSetting = envFlag("KILN_VULKAN_PRINTF");
  printfOff = printfSetting && !*printfSetting;
  printfOn = !printfOff && (printfRequested || printfRequestedByAny ||
                            printfSetting.value_or(false));
  executables.validateSPIRV = !std::getenv("KILN_VULKAN_VALIDATE_SPIRV") ||
                              envFlag("KILN_VULKAN_VALIDATE_SPIRV");
  return Status::success();
}

Status Context::addValidationLayer(std::vector<const char *> &layers,
                                   std::vector<const char *> &extensions) {
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
  return Status::success();
}

void Context::registerTeardownAtExit() {
  // Exit handlers run in reverse order of registration, and the driver and
  // the layers the loader has just opened registered their static
  // destructors: teardown must come before those (the validation layer's
  // debug printf crashes lavapipe's vkDestroyDevice otherwise). The loader
  // unloads them with the last instance and may load them again with the
  // next, so each instance registers the handler again; it runs once.
  std::atexit([] {
    LiveContexts &l = live();
    std::lock_guard<std::mutex> guard(l.mutex);
    if (l.tornDown)
      return;
    l.tornDown = true;
    unsigned messages = l.leftMessages;
    for (Context *context : l.all) {
      // An entry point reports an error and exits after releasing the
      // lock: other threads may be inside a device. Teardown waits for
      // them (unless this thread holds that device's lock already).
      if (Queue::heldLockOn(&context->mutex)) {
        messages += context->teardown();
        continue;
      }
      std::lock_guard<std::mutex> lock(context->mutex);
      messages += context->teardown();
    }
    if (messages) {
      // Messages reported at shutdown (a leak, say) still fail the run.
      std::fflush(stdout);
      std::fprintf(stderr,
                   "kiln-vulkan: the Khronos validation layer reported %u "
                   "message(s)\n",
                   messages);
      std::fflush(stderr);
      _exit(1);
    }
  });
}

Status Context::initInstance() {
  if (instance)
    return Status::success();
  KILN_TRY(usable());
  std::string error;
  if (!vk.openLoader(error))
    return KILN_ERROR(Driver, error);
  KILN_TRY(readSettings());

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

  std::vector<const char *> layers, extensions;
  if (validation || printfOn)
    KILN_TRY(addValidationLayer(layers, extensions));
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
  std::unique_lock<std::mutex> creating(instanceCreation);
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
  creating.unlock();
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
  registerTeardownAtExit();
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

/// The device's UUID (VkPhysicalDeviceIDProperties, Vulkan 1.1) as
/// formatUUID writes it; "" for a Vulkan 1.0 device, which has none.
static std::string deviceUUID(const vk::Functions &vk, VkPhysicalDevice device,
                              const VkPhysicalDeviceProperties &properties) {
  if (properties.apiVersion < VK_API_VERSION_1_1 ||
      !vk.vkGetPhysicalDeviceProperties2)
    return std::string();
  VkPhysicalDeviceIDProperties id{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2.pNext = &id;
  vk.vkGetPhysicalDeviceProperties2(device, &properties2);
  return rt::formatUUID(id.deviceUUID);
}

std::string Context::uuidOf(VkPhysicalDevice device) {
  VkPhysicalDeviceProperties properties;
  vk.vkGetPhysicalDeviceProperties(device, &properties);
  return deviceUUID(vk, device, properties);
}

Expected<VkPhysicalDevice> Context::choosePhysicalDevice() {
  KILN_ASSIGN_OR_RETURN(std::vector<VkPhysicalDevice> devices,
                        physicalDevices());
  if (devices.empty())
    return KILN_ERROR(
        Driver,
        "no Vulkan device found (vkEnumeratePhysicalDevices returned none)");
  std::vector<VkPhysicalDeviceProperties> properties(devices.size());
  std::vector<std::string> names, uuids;
  for (size_t i = 0; i < devices.size(); ++i) {
    vk.vkGetPhysicalDeviceProperties(devices[i], &properties[i]);
    names.push_back(properties[i].deviceName);
    uuids.push_back(deviceUUID(vk, devices[i], properties[i]));
  }
  // One entry of the process's list (the DeviceList sets it); the
  // environment's list is the DeviceList's to read.
  std::string choice = options.device.value_or("");
  if (!choice.empty()) {
    size_t index = 0;
    switch (rt::matchDevice(choice, names, index, uuids)) {
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
    case rt::DeviceMatch::NoSuchUUID: {
      std::vector<std::string> withUUIDs;
      for (size_t i = 0; i < names.size(); ++i)
        withUUIDs.push_back(
            names[i] + " (uuid " +
            (uuids[i].empty() ? std::string("none: Vulkan 1.0") : uuids[i]) +
            ")");
      return KILN_ERROR(InvalidArgument,
                        "no Vulkan device has UUID '" + choice +
                            "'; the devices are:" + rt::listDevices(withUUIDs));
    }
    }
  }
  // The default device: one of the most preferred kind present (discrete,
  // then integrated, virtual, CPU). Under an MPI launcher the ranks of a
  // node take those devices round-robin by local rank (DeviceChoice.h), so
  // that `mpirun -n 2` on a node with two GPUs runs one rank on each.
  const VkPhysicalDeviceType order[] = {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
                                        VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
                                        VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU,
                                        VK_PHYSICAL_DEVICE_TYPE_CPU,
                                        VK_PHYSICAL_DEVICE_TYPE_OTHER};
  for (VkPhysicalDeviceType type : order) {
    std::vector<VkPhysicalDevice> candidates;
    for (size_t i = 0; i < devices.size(); ++i)
      if (properties[i].deviceType == type)
        candidates.push_back(devices[i]);
    if (!candidates.empty())
      return candidates[rt::defaultDeviceForLocalRank(candidates.size())];
  }
  return devices[rt::defaultDeviceForLocalRank(devices.size())];
}

Status Context::initDevice() {
  if (device)
    return Status::success();
  KILN_TRY(usable());
  KILN_TRY(initInstance());
  KILN_ASSIGN_OR_RETURN(VkPhysicalDevice chosen, choosePhysicalDevice());
  DeviceOptions opening;
  opening.robust = rt::settingFlag(options.robust, "KILN_VULKAN_ROBUST");
  opening.hostImport = !std::getenv("KILN_VULKAN_HOST_IMPORT") ||
                       envFlag("KILN_VULKAN_HOST_IMPORT");
  if (const char *hide = std::getenv("KILN_VULKAN_HIDE_FEATURES"))
    opening.hideFeatures = hide;
  KILN_TRY(open(chosen, opening));
  // What fails from here leaves no device behind: a later call starts over.
  ScopeExit dropDevice([&] { destroyDeviceObjects(); });
  if (queue.envTiming && !timestamps)
    std::fprintf(stderr,
                 "kiln-vulkan: device '%s' has no compute timestamps; "
                 "--print-timing reports host time only\n",
                 properties.deviceName);
  queue.chooseTiming(timestamps);
  KILN_TRY(executables.openCache());
  KILN_TRY(queue.open());
  KILN_TRY(launcher.open());
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
  launcher.close();
  queue.close();
  executables.closeCache();
  close();
}

unsigned Context::teardown() {
  if (torndown)
    return 0;
  torndown = true;
  // After a timeout the device still runs the work: waiting would hang,
  // and destroying what it uses is invalid. The process is ending anyway.
  if (stuck)
    return 0;
  if (device) {
    vk.vkDeviceWaitIdle(device);
    destroyDevice();
  }
  if (messenger)
    vk.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  messenger = VK_NULL_HANDLE;
  if (instance)
    vk.vkDestroyInstance(instance, nullptr);
  instance = VK_NULL_HANDLE;
  return validationMessages.exchange(0);
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
    queue.chooseTiming(timestamps);
  return Status::success();
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
  if (module->debugPrintf && !instance) {
    printfRequested = true;
    printfRequestedByAny = true;
  }
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
  if (module && name && !module->shader)
    KILN_TRY(createShader(module));
  return executables.getKernel(module, name);
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
// Launches, copies and fills: the Launcher, once the device is open
//===----------------------------------------------------------------------===//

Status Context::launch(Kernel *kernel, const intptr_t grid[3],
                       const intptr_t block[3], int64_t dynamicSharedBytes,
                       Stream *stream, void **params, size_t paramsCount) {
  return launcher.launch(kernel, grid, block, dynamicSharedBytes, stream,
                         params, paramsCount);
}

Status Context::copy(void *dst, const void *src, size_t size) {
  KILN_TRY(initDevice());
  return launcher.copy(dst, src, size);
}

Expected<double> Context::deviceCopy(void *dst, const void *src, size_t size) {
  KILN_TRY(initDevice());
  return launcher.deviceCopy(dst, src, size);
}

Status Context::fill(void *dst, uint32_t pattern, unsigned patternBytes,
                     size_t count) {
  KILN_TRY(initDevice());
  return launcher.fill(dst, pattern, patternBytes, count);
}
