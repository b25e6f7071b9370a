//===- Device.cpp - Opening one Vulkan device -----------------------------===//
//
// A device is opened with every feature it has that kernels may use (less
// what KILN_VULKAN_HIDE_FEATURES hides), one compute queue, and the
// extensions Kiln uses where the device has them: non-semantic info (debug
// printf), external host memory (import instead of staging), float atomics,
// robustness2 when robust buffer access is asked for. Each step is its own
// function over a FeatureChain, the structures vkCreateDevice reads.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace kiln;
using namespace kiln::vkrt;

namespace {
/// The feature structures a device is queried and created with, linked
/// through pNext (the chain points into the object, so it is not copied).
struct FeatureChain {
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  FeatureChain() = default;
  FeatureChain(const FeatureChain &) = delete;
  FeatureChain &operator=(const FeatureChain &) = delete;
  /// Puts `next` at the front of the chain after `features`.
  template <typename T> void push(T &next) {
    next.pNext = features.pNext;
    features.pNext = &next;
  }
};

/// The device's extensions, and those the device is created with.
struct Extensions {
  std::vector<VkExtensionProperties> available;
  std::vector<const char *> enabled;
  bool has(const char *name) const {
    return std::any_of(available.begin(), available.end(), [&](auto &e) {
      return std::strcmp(e.extensionName, name) == 0;
    });
  }
};
} // namespace

/// Fills `out`, one structure of the VkPhysicalDeviceFeatures2 chain.
template <typename T> static void queryFeatures(Device &d, T &out) {
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  query.pNext = &out;
  d.vk.vkGetPhysicalDeviceFeatures2(d.physical, &query);
  out.pNext = nullptr;
}

Status Device::vkCheck(VkResult result, const char *call, const char *file,
                       int line) {
  Status error = vkStatus(result, call, file, line);
  // Every later call on this device fails with it (callers hold the
  // runtime's lock).
  if (result == VK_ERROR_DEVICE_LOST && !broken)
    broken = error;
  return error;
}

Status Device::checkValidation() {
  if (unsigned n = validationMessages.exchange(0)) {
    // Reported here, not again at exit.
    return KILN_ERROR(Validation, "the Khronos validation layer reported " +
                                      std::to_string(n) + " message(s)");
  }
  return Status::success();
}

/// The first queue family with compute, and whether it has timestamps.
static Status findComputeQueue(Device &d) {
  uint32_t n = 0;
  d.vk.vkGetPhysicalDeviceQueueFamilyProperties(d.physical, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  d.vk.vkGetPhysicalDeviceQueueFamilyProperties(d.physical, &n,
                                                families.data());
  for (uint32_t i = 0; i < n; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      d.queueFamily = i;
      d.timestamps = families[i].timestampValidBits > 0 &&
                     d.properties.limits.timestampPeriod > 0;
      return Status::success();
    }
  return KILN_ERROR(Unsupported, std::string("device '") +
                                     d.properties.deviceName +
                                     "' has no compute queue");
}

/// Non-semantic info and host import, where the device has them.
static void chooseExtensions(Device &d, Extensions &ext,
                             const DeviceOptions &options) {
  d.nonSemanticInfo = d.properties.apiVersion >= VK_API_VERSION_1_3;
  if (!d.nonSemanticInfo &&
      ext.has(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME)) {
    ext.enabled.push_back(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
    d.nonSemanticInfo = true;
  }
  d.hostImport =
      options.hostImport && ext.has(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (!d.hostImport)
    return;
  ext.enabled.push_back(VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME);
  ext.enabled.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 properties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &host};
  d.vk.vkGetPhysicalDeviceProperties2(d.physical, &properties);
  d.importAlignment = std::max<uint64_t>(host.minImportedHostPointerAlignment,
                                         sysconf(_SC_PAGESIZE));
}

/// What kernels may use: the core and 1.1-1.3 features, float atomics,
/// subgroup operations and float controls, less what the user hides; the
/// chain is left holding exactly that.
static Status queryCapabilities(Device &d, FeatureChain &chain, Extensions &ext,
                                const DeviceOptions &options) {
  DeviceCapabilities &caps = d.capabilities;
  uint32_t api = d.properties.apiVersion;
  if (api >= VK_API_VERSION_1_2) {
    chain.features.pNext = &chain.v11;
    chain.v11.pNext = &chain.v12;
    if (api >= VK_API_VERSION_1_3)
      chain.v12.pNext = &chain.v13;
  }
  d.vk.vkGetPhysicalDeviceFeatures2(d.physical, &chain.features);
  caps.core = chain.features.features;
  caps.knownOnlyCore = api < VK_API_VERSION_1_2;
  if (!caps.knownOnlyCore) {
    caps.v11 = chain.v11;
    caps.v12 = chain.v12;
    if (api >= VK_API_VERSION_1_3)
      caps.v13 = chain.v13;
  }
  // Float atomics (memref.atomic_rmw addf), where the device has them.
  bool atomicFloat =
      !caps.knownOnlyCore && ext.has(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (atomicFloat) {
    queryFeatures(d, chain.atomicFloat);
    caps.atomicFloat = chain.atomicFloat;
  }
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &subgroup;
  VkPhysicalDeviceFloatControlsProperties floatControls{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  if (api >= VK_API_VERSION_1_2)
    subgroup.pNext = &floatControls;
  d.vk.vkGetPhysicalDeviceProperties2(d.physical, &props2);
  if (api >= VK_API_VERSION_1_2) {
    caps.floatControls = floatControls;
    caps.floatControls.pNext = nullptr;
    caps.floatControlsKnown = true;
  }
  caps.subgroupOperations = subgroup.supportedOperations;
  caps.subgroupInCompute =
      (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  if (!options.hideFeatures.empty()) {
    std::string error;
    if (!hideFeatures(options.hideFeatures, caps, error))
      return KILN_ERROR(InvalidArgument, error);
    bool all = !caps.knownOnlyCore;
    storeFeatures(caps, chain.features.features, all ? &chain.v11 : nullptr,
                  all ? &chain.v12 : nullptr, all ? &chain.v13 : nullptr);
  }
  if (atomicFloat) {
    // Enabled as kernels may use them, less what was hidden.
    chain.atomicFloat = caps.atomicFloat;
    chain.push(chain.atomicFloat);
    ext.enabled.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  }
  return Status::success();
}

/// Robustness is off unless asked for (KILN_VULKAN_ROBUST=1, the runners'
/// --robust-buffer-access): it costs, and it hides kernel bugs. Asked for,
/// an out-of-bounds access of a buffer argument reads zero and a write is
/// dropped (robustBufferAccess2 where the device has VK_EXT_robustness2;
/// core robustBufferAccess keeps accesses inside the buffer otherwise).
/// Buffer device addresses are on where the device has them.
static Status chooseRobustnessAndAddresses(Device &d, FeatureChain &chain,
                                           Extensions &ext,
                                           const DeviceOptions &options) {
  d.robust = options.robust;
  if (d.robust) {
    if (!chain.features.features.robustBufferAccess)
      return KILN_ERROR(Unsupported,
                        std::string("robust buffer access was asked for "
                                    "(KILN_VULKAN_ROBUST), but device '") +
                            d.properties.deviceName +
                            "' does not offer robustBufferAccess");
    d.stats.robustBufferAccess = 1;
    if (ext.has(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) {
      VkPhysicalDeviceRobustness2FeaturesEXT available{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
      queryFeatures(d, available);
      if (available.robustBufferAccess2) {
        d.stats.robustBufferAccess = 2;
        ext.enabled.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
        chain.robustness2.robustBufferAccess2 = VK_TRUE;
        chain.push(chain.robustness2);
      }
    }
  } else {
    chain.features.features.robustBufferAccess = VK_FALSE;
  }
  chain.v13.robustImageAccess = VK_FALSE;
  d.deviceAddresses = !d.capabilities.knownOnlyCore &&
                      d.capabilities.v12.bufferDeviceAddress &&
                      d.vk.vkGetBufferDeviceAddress;
  chain.v12.bufferDeviceAddress = d.deviceAddresses;
  // Captured addresses and several devices in one are for tools; off.
  chain.v12.bufferDeviceAddressCaptureReplay = VK_FALSE;
  chain.v12.bufferDeviceAddressMultiDevice = VK_FALSE;
  return Status::success();
}

Status Device::open(VkPhysicalDevice chosen, const DeviceOptions &options) {
  physical = chosen;
  vk.vkGetPhysicalDeviceProperties(physical, &properties);
  vk.vkGetPhysicalDeviceMemoryProperties(physical, &memoryProperties);
  if (properties.apiVersion < VK_API_VERSION_1_1)
    return KILN_ERROR(Unsupported,
                      std::string("device '") + properties.deviceName +
                          "' supports only Vulkan 1.0; Kiln needs 1.1");
  KILN_TRY(findComputeQueue(*this));

  Extensions ext;
  uint32_t count = 0;
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  ext.available.resize(count);
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &count,
                                          ext.available.data());
  chooseExtensions(*this, ext, options);
  FeatureChain chain;
  KILN_TRY(queryCapabilities(*this, chain, ext, options));
  KILN_TRY(chooseRobustnessAndAddresses(*this, chain, ext, options));

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &chain.features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = ext.enabled.size();
  info.ppEnabledExtensionNames = ext.enabled.data();
  // Created into a local: a failed call leaves its output undefined.
  VkDevice created = VK_NULL_HANDLE;
  KILN_VK_ON(*this, vk.vkCreateDevice(physical, &info, nullptr, &created),
             "vkCreateDevice");
  device = created;
  ++stats.devices;
  vk.vkGetDeviceQueue(device, queueFamily, 0, &computeQueue);
  return Status::success();
}

void Device::close() {
  if (device)
    vk.vkDestroyDevice(device, nullptr);
  device = VK_NULL_HANDLE;
  computeQueue = VK_NULL_HANDLE;
}
