//===- Capabilities.cpp - SPIR-V capabilities against a device ------------===//

#include "Capabilities.h"

#include <spirv/unified1/spirv.h>

#include <cstring>

namespace kiln {
namespace vkrt {

namespace {

/// Returns a pointer to the named feature's flag in `c` (const or not), or
/// null.
template <typename Caps>
auto featureFlag(Caps &c, const std::string &name)
    -> decltype(&c.core.shaderFloat64) {
  struct Entry {
    const char *name;
    decltype(&c.core.shaderFloat64) flag;
  };
  const Entry entries[] = {
      {"shaderFloat64", &c.core.shaderFloat64},
      {"shaderInt64", &c.core.shaderInt64},
      {"shaderInt16", &c.core.shaderInt16},
      {"storageBuffer16BitAccess", &c.v11.storageBuffer16BitAccess},
      {"uniformAndStorageBuffer16BitAccess",
       &c.v11.uniformAndStorageBuffer16BitAccess},
      {"storagePushConstant16", &c.v11.storagePushConstant16},
      {"variablePointersStorageBuffer", &c.v11.variablePointersStorageBuffer},
      {"variablePointers", &c.v11.variablePointers},
      {"storageBuffer8BitAccess", &c.v12.storageBuffer8BitAccess},
      {"uniformAndStorageBuffer8BitAccess",
       &c.v12.uniformAndStorageBuffer8BitAccess},
      {"storagePushConstant8", &c.v12.storagePushConstant8},
      {"shaderBufferInt64Atomics", &c.v12.shaderBufferInt64Atomics},
      {"shaderSharedInt64Atomics", &c.v12.shaderSharedInt64Atomics},
      {"shaderFloat16", &c.v12.shaderFloat16},
      {"shaderInt8", &c.v12.shaderInt8},
      {"bufferDeviceAddress", &c.v12.bufferDeviceAddress},
      {"vulkanMemoryModel", &c.v12.vulkanMemoryModel},
      {"shaderIntegerDotProduct", &c.v13.shaderIntegerDotProduct},
      {"shaderBufferFloat32AtomicAdd",
       &c.atomicFloat.shaderBufferFloat32AtomicAdd},
      {"shaderSharedFloat32AtomicAdd",
       &c.atomicFloat.shaderSharedFloat32AtomicAdd},
      {"shaderBufferFloat64AtomicAdd",
       &c.atomicFloat.shaderBufferFloat64AtomicAdd},
      {"shaderSharedFloat64AtomicAdd",
       &c.atomicFloat.shaderSharedFloat64AtomicAdd},
  };
  for (const Entry &e : entries)
    if (name == e.name)
      return e.flag;
  return nullptr;
}

// SPIR-V capability numbers (the SPIR-V specification, section 3.31).
/// The float controls (VkPhysicalDeviceFloatControlsProperties) Kiln's
/// kernels may ask for, by name.
VkBool32 *floatControlFlag(DeviceCapabilities &c, const std::string &name) {
  VkPhysicalDeviceFloatControlsProperties &fc = c.floatControls;
  if (name == "shaderSignedZeroInfNanPreserveFloat16")
    return &fc.shaderSignedZeroInfNanPreserveFloat16;
  if (name == "shaderSignedZeroInfNanPreserveFloat32")
    return &fc.shaderSignedZeroInfNanPreserveFloat32;
  if (name == "shaderSignedZeroInfNanPreserveFloat64")
    return &fc.shaderSignedZeroInfNanPreserveFloat64;
  return nullptr;
}

struct Requirement {
  uint32_t capability;
  const char *capabilityName;
  /// A Vulkan feature, or null for a subgroup operation class.
  const char *feature;
  VkSubgroupFeatureFlags subgroup;
};

const Requirement kRequirements[] = {
    {SpvCapabilityFloat16, "Float16", "shaderFloat16", 0},
    {SpvCapabilityFloat64, "Float64", "shaderFloat64", 0},
    {SpvCapabilityInt64, "Int64", "shaderInt64", 0},
    {SpvCapabilityInt64Atomics, "Int64Atomics", "shaderBufferInt64Atomics", 0},
    {SpvCapabilityInt16, "Int16", "shaderInt16", 0},
    {SpvCapabilityInt8, "Int8", "shaderInt8", 0},
    {SpvCapabilityStorageBuffer16BitAccess, "StorageBuffer16BitAccess",
     "storageBuffer16BitAccess", 0},
    {SpvCapabilityUniformAndStorageBuffer16BitAccess,
     "UniformAndStorageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess",
     0},
    {SpvCapabilityStoragePushConstant16, "StoragePushConstant16",
     "storagePushConstant16", 0},
    {SpvCapabilityStorageBuffer8BitAccess, "StorageBuffer8BitAccess",
     "storageBuffer8BitAccess", 0},
    {SpvCapabilityUniformAndStorageBuffer8BitAccess,
     "UniformAndStorageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess",
     0},
    {SpvCapabilityStoragePushConstant8, "StoragePushConstant8",
     "storagePushConstant8", 0},
    {SpvCapabilityVariablePointersStorageBuffer,
     "VariablePointersStorageBuffer", "variablePointersStorageBuffer", 0},
    {SpvCapabilityVariablePointers, "VariablePointers", "variablePointers", 0},
    {SpvCapabilityVulkanMemoryModel, "VulkanMemoryModel", "vulkanMemoryModel",
     0},
    {SpvCapabilityPhysicalStorageBufferAddresses,
     "PhysicalStorageBufferAddresses", "bufferDeviceAddress", 0},
    {SpvCapabilityDotProduct, "DotProduct", "shaderIntegerDotProduct", 0},
    {SpvCapabilityDotProductInputAll, "DotProductInputAll",
     "shaderIntegerDotProduct", 0},
    {SpvCapabilityDotProductInput4x8Bit, "DotProductInput4x8Bit",
     "shaderIntegerDotProduct", 0},
    {SpvCapabilityDotProductInput4x8BitPacked, "DotProductInput4x8BitPacked",
     "shaderIntegerDotProduct", 0},
    // Buffer atomics; a workgroup-memory float atomic also needs
    // shaderSharedFloat*AtomicAdd, which the device target env asks for
    // before it offers the capability.
    {SpvCapabilityAtomicFloat32AddEXT, "AtomicFloat32AddEXT",
     "shaderBufferFloat32AtomicAdd", 0},
    {SpvCapabilityAtomicFloat64AddEXT, "AtomicFloat64AddEXT",
     "shaderBufferFloat64AtomicAdd", 0},
    {SpvCapabilityGroupNonUniform, "GroupNonUniform", nullptr,
     VK_SUBGROUP_FEATURE_BASIC_BIT},
    {SpvCapabilityGroupNonUniformVote, "GroupNonUniformVote", nullptr,
     VK_SUBGROUP_FEATURE_VOTE_BIT},
    {SpvCapabilityGroupNonUniformArithmetic, "GroupNonUniformArithmetic",
     nullptr, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
    {SpvCapabilityGroupNonUniformBallot, "GroupNonUniformBallot", nullptr,
     VK_SUBGROUP_FEATURE_BALLOT_BIT},
    {SpvCapabilityGroupNonUniformShuffle, "GroupNonUniformShuffle", nullptr,
     VK_SUBGROUP_FEATURE_SHUFFLE_BIT},
    {SpvCapabilityGroupNonUniformShuffleRelative,
     "GroupNonUniformShuffleRelative", nullptr,
     VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},
    {SpvCapabilityGroupNonUniformClustered, "GroupNonUniformClustered", nullptr,
     VK_SUBGROUP_FEATURE_CLUSTERED_BIT},
    {SpvCapabilityGroupNonUniformQuad, "GroupNonUniformQuad", nullptr,
     VK_SUBGROUP_FEATURE_QUAD_BIT},
};

const char *subgroupBitName(VkSubgroupFeatureFlags bit) {
  switch (bit) {
  case VK_SUBGROUP_FEATURE_BASIC_BIT:
    return "basic";
  case VK_SUBGROUP_FEATURE_VOTE_BIT:
    return "vote";
  case VK_SUBGROUP_FEATURE_ARITHMETIC_BIT:
    return "arithmetic";
  case VK_SUBGROUP_FEATURE_BALLOT_BIT:
    return "ballot";
  case VK_SUBGROUP_FEATURE_SHUFFLE_BIT:
    return "shuffle";
  case VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT:
    return "shuffle_relative";
  case VK_SUBGROUP_FEATURE_CLUSTERED_BIT:
    return "clustered";
  case VK_SUBGROUP_FEATURE_QUAD_BIT:
    return "quad";
  default:
    return "?";
  }
}

} // namespace

/// Copies `from` into `to` but keeps `to`'s place in its pNext chain.
template <typename T> static void storeKeepingChain(const T &from, T *to) {
  if (!to)
    return;
  void *next = to->pNext;
  *to = from;
  to->pNext = next;
}

void storeFeatures(const DeviceCapabilities &caps,
                   VkPhysicalDeviceFeatures &core,
                   VkPhysicalDeviceVulkan11Features *v11,
                   VkPhysicalDeviceVulkan12Features *v12,
                   VkPhysicalDeviceVulkan13Features *v13) {
  core = caps.core;
  storeKeepingChain(caps.v11, v11);
  storeKeepingChain(caps.v12, v12);
  storeKeepingChain(caps.v13, v13);
}

bool hideFeatures(const std::string &list, DeviceCapabilities &caps,
                  std::string &error) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos)
      end = list.size();
    std::string name = list.substr(start, end - start);
    if (!name.empty()) {
      if (name.rfind("subgroup:", 0) == 0) {
        std::string op = name.substr(9);
        bool found = false;
        for (VkSubgroupFeatureFlags bit = 1;
             bit <= VK_SUBGROUP_FEATURE_QUAD_BIT; bit <<= 1)
          if (op == subgroupBitName(bit)) {
            caps.subgroupOperations &= ~bit;
            found = true;
          }
        if (!found) {
          error = "KILN_VULKAN_HIDE_FEATURES: unknown subgroup operation "
                  "class '" +
                  op + "'";
          return false;
        }
      } else if (VkBool32 *flag = featureFlag(caps, name)) {
        *flag = VK_FALSE;
      } else if (VkBool32 *property = floatControlFlag(caps, name)) {
        *property = VK_FALSE;
      } else {
        error = "KILN_VULKAN_HIDE_FEATURES: unknown feature '" + name +
                "' (a VkPhysicalDevice*Features member such as "
                "shaderFloat64, a float control such as "
                "shaderSignedZeroInfNanPreserveFloat32, or "
                "subgroup:arithmetic)";
        return false;
      }
    }
    start = end + 1;
  }
  return true;
}

std::string missingCapability(const std::vector<uint32_t> &words,
                              const DeviceCapabilities &caps) {
  // Features of a structure the device could not be asked for (Vulkan 1.1
  // devices: only `core` was queried) are the driver's to judge.
  auto known = [&](const VkBool32 *flag) {
    auto *core = reinterpret_cast<const char *>(&caps.core);
    auto *at = reinterpret_cast<const char *>(flag);
    return flag && (!caps.knownOnlyCore ||
                    (at >= core && at < core + sizeof(caps.core)));
  };
  for (size_t i = 5; i < words.size();) {
    uint32_t opcode = words[i] & 0xffff;
    uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size() || opcode == SpvOpFunction)
      break;
    if (opcode == SpvOpExecutionMode && count >= 4 &&
        words[i + 2] == SpvExecutionModeSignedZeroInfNanPreserve &&
        caps.floatControlsKnown) {
      uint32_t width = words[i + 3];
      const VkPhysicalDeviceFloatControlsProperties &fc = caps.floatControls;
      VkBool32 supported =
          width == 16   ? fc.shaderSignedZeroInfNanPreserveFloat16
          : width == 32 ? fc.shaderSignedZeroInfNanPreserveFloat32
          : width == 64 ? fc.shaderSignedZeroInfNanPreserveFloat64
                        : VK_FALSE;
      if (!supported)
        return "execution mode SignedZeroInfNanPreserve for " +
               std::to_string(width) +
               "-bit floats (Vulkan property "
               "shaderSignedZeroInfNanPreserveFloat" +
               std::to_string(width) +
               "; compile with --fast-math to let the driver ignore NaNs, "
               "infinities and signed zeros)";
    }
    if (opcode == SpvOpCapability && count >= 2) {
      uint32_t capability = words[i + 1];
      for (const Requirement &r : kRequirements) {
        if (r.capability != capability)
          continue;
        if (r.feature) {
          const VkBool32 *flag = featureFlag(caps, r.feature);
          if (known(flag) && !*flag)
            return std::string("capability ") + r.capabilityName +
                   " (Vulkan feature " + r.feature + ")";
        } else if (!caps.subgroupInCompute ||
                   !(caps.subgroupOperations & r.subgroup)) {
          return std::string("capability ") + r.capabilityName +
                 " (subgroup operations '" + subgroupBitName(r.subgroup) +
                 "' in compute shaders)";
        }
      }
    }
    i += count;
  }
  return "";
}

uint64_t deviceLocalBytes(const VkPhysicalDeviceMemoryProperties &memory) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      bytes += memory.memoryHeaps[i].size;
  return bytes;
}

} // namespace vkrt
} // namespace kiln
