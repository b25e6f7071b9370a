//===- Capabilities.h - SPIR-V capabilities against a device ----*- C++ -*-===//
//
// Before a module reaches the driver, every OpCapability it declares is
// checked against what the device offers, so that a kernel compiled for a
// richer target env than the device stops with the capability and the
// device named instead of failing (or misbehaving) inside the driver.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_CAPABILITIES_H
#define KILN_RUNTIME_VULKAN_CAPABILITIES_H

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {
namespace vkrt {

/// A Vulkan structure of type `type` with every other member zero (in a
/// header that tools outside the runtime include too, without the partial
/// initializer clang's -Wmissing-field-initializers reports).
template <typename T> T typedStruct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

/// What a device offers kernels, as queried when it was opened.
struct DeviceCapabilities {
  VkPhysicalDeviceFeatures core{};
  VkPhysicalDeviceVulkan11Features v11 =
      typedStruct<VkPhysicalDeviceVulkan11Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  VkPhysicalDeviceVulkan12Features v12 =
      typedStruct<VkPhysicalDeviceVulkan12Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  VkPhysicalDeviceVulkan13Features v13 =
      typedStruct<VkPhysicalDeviceVulkan13Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  /// The execution modes of SPV_KHR_float_controls the device takes
  /// (Vulkan 1.2; unknown below it: then the driver judges).
  VkPhysicalDeviceFloatControlsProperties floatControls =
      typedStruct<VkPhysicalDeviceFloatControlsProperties>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
  bool floatControlsKnown = false;
  /// VK_EXT_shader_atomic_float (all false where the device lacks it):
  /// what AtomicFloat32AddEXT / AtomicFloat64AddEXT need.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat =
      typedStruct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  VkSubgroupFeatureFlags subgroupOperations = 0;
  bool subgroupInCompute = false;
  /// Only `core` was queried (a Vulkan 1.1 device): the other structures
  /// hold nothing to check against.
  bool knownOnlyCore = false;
};

/// Turns off the features named in `list` (comma-separated Vulkan feature
/// names, e.g. "shaderFloat64,shaderInt16"): KILN_VULKAN_HIDE_FEATURES,
/// which makes a device look like one without them. False with `error` for
/// a name this table does not know.
bool hideFeatures(const std::string &list, DeviceCapabilities &caps,
                  std::string &error);

/// Writes `caps` back into the feature structures a query filled (`v11`,
/// `v12`, `v13` may be null), keeping their sType and pNext chain: after
/// hideFeatures, what a device is created with or described by.
void storeFeatures(const DeviceCapabilities &caps, VkPhysicalDeviceFeatures &core,
                   VkPhysicalDeviceVulkan11Features *v11,
                   VkPhysicalDeviceVulkan12Features *v12,
                   VkPhysicalDeviceVulkan13Features *v13);

/// The sum of a device's device-local memory heaps.
uint64_t deviceLocalBytes(const VkPhysicalDeviceMemoryProperties &memory);

/// The first capability `words` (a SPIR-V module) declares that `caps` lack,
/// as "capability Float64 (Vulkan feature shaderFloat64)"; empty when the
/// device has them all.
/// The first capability or execution mode of the SPIR-V `words` that the
/// device lacks, described for a message; empty if none.
std::string missingCapability(const std::vector<uint32_t> &words,
                              const DeviceCapabilities &caps);

} // namespace vkrt
} // namespace kiln

#endif // KILN_RUNTIME_VULKAN_CAPABILITIES_H
