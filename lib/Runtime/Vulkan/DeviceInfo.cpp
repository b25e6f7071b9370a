//===- DeviceInfo.cpp - Listing devices and their SPIR-V target env -------===//
//
// `kiln-vulkan-runner --list-devices` and `--print-target-env`, and the
// runner's default `--target-env=device`, come from here: what a device
// reports (version, features, subgroup operations, limits) as the
// `#spirv.target_env` Kiln compiles for.
//
//===----------------------------------------------------------------------===//

#include "../Format.h"
#include "Capabilities.h"
#include "Context.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace kiln;
using namespace kiln::vkrt;

static const char *deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

static std::string versionText(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." +
         std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

namespace {
/// What Kiln asks of a physical device.
struct DeviceQuery {
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties sizeControl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceFloatControlsProperties floatControls{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features f11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceMemoryProperties memory{};
  std::vector<std::string> extensions;

  DeviceQuery(Context &c, VkPhysicalDevice d) {
    c.vk.vkGetPhysicalDeviceProperties(d, &props);
    bool v12 = props.apiVersion >= VK_API_VERSION_1_2;
    bool v13 = props.apiVersion >= VK_API_VERSION_1_3;
    VkPhysicalDeviceProperties2 p2{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &subgroup;
    if (v12) {
      subgroup.pNext = &driver;
      driver.pNext = &floatControls;
    }
    if (v13)
      floatControls.pNext = &sizeControl;
    c.vk.vkGetPhysicalDeviceProperties2(d, &p2);
    uint32_t n = 0;
    c.vk.vkEnumerateDeviceExtensionProperties(d, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> ext(n);
    c.vk.vkEnumerateDeviceExtensionProperties(d, nullptr, &n, ext.data());
    for (auto &e : ext)
      extensions.push_back(e.extensionName);
    if (v12) {
      features.pNext = &f11;
      f11.pNext = &f12;
      if (has(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME))
        f12.pNext = &atomicFloat;
    }
    c.vk.vkGetPhysicalDeviceFeatures2(d, &features);
    // The device as kernels will see it: KILN_VULKAN_HIDE_FEATURES applies
    // here too, so that --target-env=device compiles for what is left (a
    // bad list is reported when the device is opened).
    if (const char *hide = std::getenv("KILN_VULKAN_HIDE_FEATURES")) {
      DeviceCapabilities caps;
      caps.core = features.features;
      caps.v11 = f11;
      caps.v12 = f12;
      caps.floatControls = floatControls;
      caps.atomicFloat = atomicFloat;
      std::string error;
      if (hideFeatures(hide, caps, error)) {
        storeFeatures(caps, features.features, &f11, &f12, nullptr);
        atomicFloat = caps.atomicFloat;
        void *next = floatControls.pNext;
        floatControls = caps.floatControls;
        floatControls.pNext = next;
      }
    }
    c.vk.vkGetPhysicalDeviceMemoryProperties(d, &memory);
  }
  bool has(const char *ext) const {
    for (const std::string &e : extensions)
      if (e == ext)
        return true;
    return false;
  }
  bool v12() const { return props.apiVersion >= VK_API_VERSION_1_2; }
};
} // namespace

using rt::appendf;

Expected<std::string> Context::describeDevices() {
  KILN_ASSIGN_OR_RETURN(std::vector<VkPhysicalDevice> devices,
                        physicalDevices());
  if (devices.empty())
    return KILN_ERROR(Driver, "no Vulkan device found");
  std::string out;
  for (size_t i = 0; i < devices.size(); ++i) {
    DeviceQuery q(*this, devices[i]);
    const VkPhysicalDeviceLimits &l = q.props.limits;
    appendf(out, "%zu: %s\n", i, q.props.deviceName);
    appendf(out, "  type: %s, vendor 0x%04x, device 0x%04x\n",
            deviceTypeName(q.props.deviceType), q.props.vendorID,
            q.props.deviceID);
    appendf(out, "  api: %s, driver: %s",
            versionText(q.props.apiVersion).c_str(),
            versionText(q.props.driverVersion).c_str());
    if (q.v12())
      appendf(out, " (%s %s)", q.driver.driverName, q.driver.driverInfo);
    appendf(out, "\n");
    // What a device list entry may name the device by, whatever order the
    // driver lists it in.
    if (std::string uuid = uuidOf(devices[i]); !uuid.empty())
      appendf(out, "  uuid: %s\n", uuid.c_str());
    for (uint32_t h = 0; h < q.memory.memoryHeapCount; ++h)
      appendf(out, "  memory heap %u: %.1f MiB%s\n", h,
              q.memory.memoryHeaps[h].size / (1024.0 * 1024.0),
              q.memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT
                  ? ", device local"
                  : "");
    appendf(out, "  subgroup size: %u", q.subgroup.subgroupSize);
    if (q.sizeControl.minSubgroupSize)
      appendf(out, " (%u to %u)", q.sizeControl.minSubgroupSize,
              q.sizeControl.maxSubgroupSize);
    appendf(out, "\n");
    appendf(out, "  max workgroup size: [%u, %u, %u], invocations: %u\n",
            l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1],
            l.maxComputeWorkGroupSize[2], l.maxComputeWorkGroupInvocations);
    appendf(out, "  max workgroup count: [%u, %u, %u]\n",
            l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1],
            l.maxComputeWorkGroupCount[2]);
    appendf(out,
            "  shared memory: %u bytes, push constants: %u bytes, "
            "storage buffer range: %u bytes\n",
            l.maxComputeSharedMemorySize, l.maxPushConstantsSize,
            l.maxStorageBufferRange);
    // Where a storage buffer may start: memrefs of static shape or identity
    // layout are bound at their first element, which must be so aligned.
    appendf(out, "  storage buffer offset alignment: %llu bytes\n",
            static_cast<unsigned long long>(l.minStorageBufferOffsetAlignment));
  }
  return std::move(out);
}

/// The capabilities (and extensions) the device's features allow: 64- and
/// 16-bit types, 8- and 16-bit storage, buffer addresses, float atomic add,
/// and the float controls Kiln's pipeline asks for.
static void featureCapabilities(const DeviceQuery &q,
                                std::vector<std::string> &caps,
                                std::vector<std::string> &exts) {
  const VkPhysicalDeviceFeatures &f = q.features.features;
  if (f.shaderFloat64)
    caps.push_back("Float64");
  if (f.shaderInt64)
    caps.push_back("Int64");
  if (f.shaderInt16)
    caps.push_back("Int16");
  if (q.v12()) {
    // Vulkan 1.1/1.2 features and the capability (and extension) each allows.
    const struct {
      VkBool32 feature;
      const char *capability;
      const char *extension;
    } features[] = {
        {q.f12.shaderFloat16, "Float16", nullptr},
        {q.f12.shaderInt8, "Int8", nullptr},
        {q.f12.shaderBufferInt64Atomics && f.shaderInt64, "Int64Atomics",
         nullptr},
        {q.f12.storageBuffer8BitAccess, "StorageBuffer8BitAccess",
         "SPV_KHR_8bit_storage"},
        {q.f12.uniformAndStorageBuffer8BitAccess,
         "UniformAndStorageBuffer8BitAccess", nullptr},
        {q.f12.storagePushConstant8, "StoragePushConstant8", nullptr},
        {q.f11.storageBuffer16BitAccess, "StorageBuffer16BitAccess",
         "SPV_KHR_16bit_storage"},
        {q.f11.uniformAndStorageBuffer16BitAccess, "StorageUniform16", nullptr},
        {q.f11.storagePushConstant16, "StoragePushConstant16", nullptr},
        {q.f12.bufferDeviceAddress, "PhysicalStorageBufferAddresses",
         "SPV_KHR_physical_storage_buffer"},
    };
    for (const auto &entry : features) {
      if (!entry.feature)
        continue;
      caps.push_back(entry.capability);
      if (entry.extension)
        exts.push_back(entry.extension);
    }
  }
  // Float atomic add on buffers and workgroup memory alike (the capability
  // does not tell them apart).
  {
    const VkPhysicalDeviceShaderAtomicFloatFeaturesEXT &a = q.atomicFloat;
    bool add32 =
        a.shaderBufferFloat32AtomicAdd && a.shaderSharedFloat32AtomicAdd;
    bool add64 = f.shaderFloat64 && a.shaderBufferFloat64AtomicAdd &&
                 a.shaderSharedFloat64AtomicAdd;
    if (add32)
      caps.push_back("AtomicFloat32AddEXT");
    if (add64)
      caps.push_back("AtomicFloat64AddEXT");
    if (add32 || add64)
      exts.push_back("SPV_EXT_shader_atomic_float_add");
  }
  // NaNs, infinities and signed zeros kept (the float controls Kiln's
  // pipeline asks for) for every float width the device computes with.
  if (q.v12()) {
    const VkPhysicalDeviceFloatControlsProperties &fc = q.floatControls;
    if (fc.shaderSignedZeroInfNanPreserveFloat32 &&
        (!q.f12.shaderFloat16 || fc.shaderSignedZeroInfNanPreserveFloat16) &&
        (!f.shaderFloat64 || fc.shaderSignedZeroInfNanPreserveFloat64))
      caps.push_back("SignedZeroInfNanPreserve");
  }
}

/// The subgroup capabilities the device offers compute shaders.
static void subgroupCapabilities(const DeviceQuery &q,
                                 std::vector<std::string> &caps) {
  if (q.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) {
    VkSubgroupFeatureFlags ops = q.subgroup.supportedOperations;
    struct {
      VkSubgroupFeatureFlags bit;
      const char *cap;
    } table[] = {
        {VK_SUBGROUP_FEATURE_BASIC_BIT, "GroupNonUniform"},
        {VK_SUBGROUP_FEATURE_VOTE_BIT, "GroupNonUniformVote"},
        {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "GroupNonUniformArithmetic"},
        {VK_SUBGROUP_FEATURE_BALLOT_BIT, "GroupNonUniformBallot"},
        {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "GroupNonUniformShuffle"},
        {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT,
         "GroupNonUniformShuffleRelative"},
        {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "GroupNonUniformClustered"},
        {VK_SUBGROUP_FEATURE_QUAD_BIT, "GroupNonUniformQuad"},
    };
    for (auto &t : table)
      if (ops & t.bit)
        caps.push_back(t.cap);
  }
}

/// "VENDOR:TYPE, " for the target env, or nothing for an unknown vendor.
static std::string vendorAndType(const VkPhysicalDeviceProperties &props) {
  const char *vendor = nullptr;
  switch (props.vendorID) {
  case 0x10DE:
    vendor = "NVIDIA";
    break;
  case 0x1002:
    vendor = "AMD";
    break;
  case 0x8086:
    vendor = "Intel";
    break;
  case 0x13B5:
    vendor = "ARM";
    break;
  case 0x5143:
    vendor = "Qualcomm";
    break;
  case 0x1010:
    vendor = "Imagination";
    break;
  default:
    vendor = "Unknown";
  }
  const char *type = "Unknown";
  switch (props.deviceType) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    type = "DiscreteGPU";
    break;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    type = "IntegratedGPU";
    break;
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    type = "CPU";
    break;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
  case VK_PHYSICAL_DEVICE_TYPE_OTHER:
    type = "Other";
    break;
  default:
    break;
  }
  if (std::strcmp(vendor, "Unknown") == 0)
    return std::string();
  return std::string(vendor) + ":" + type + ", ";
}

Expected<std::string> Context::deviceTargetEnv() {
  KILN_ASSIGN_OR_RETURN(VkPhysicalDevice chosen, choosePhysicalDevice());
  DeviceQuery q(*this, chosen);
  uint32_t api = q.props.apiVersion;
  const char *version = api >= VK_API_VERSION_1_3   ? "v1.6"
                        : api >= VK_API_VERSION_1_2 ? "v1.5"
                                                    : "v1.3";
  std::vector<std::string> caps = {"Shader"},
                           exts = {"SPV_KHR_storage_buffer_storage_class"};
  featureCapabilities(q, caps, exts);
  subgroupCapabilities(q, caps);
  auto join = [](const std::vector<std::string> &v) {
    std::string s;
    for (const std::string &x : v)
      s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  const VkPhysicalDeviceLimits &l = q.props.limits;
  std::string text =
      std::string("#spirv.target_env<#spirv.vce<") + version + ", [" +
      join(caps) + "], [" + join(exts) + "]>, api=Vulkan, " +
      vendorAndType(q.props) +
      "#spirv.resource_limits<max_compute_shared_memory_size = " +
      std::to_string(l.maxComputeSharedMemorySize) +
      ", max_compute_workgroup_invocations = " +
      std::to_string(l.maxComputeWorkGroupInvocations) +
      ", max_compute_workgroup_size = [" +
      std::to_string(l.maxComputeWorkGroupSize[0]) + ", " +
      std::to_string(l.maxComputeWorkGroupSize[1]) + ", " +
      std::to_string(l.maxComputeWorkGroupSize[2]) +
      "], subgroup_size = " + std::to_string(q.subgroup.subgroupSize);
  if (q.sizeControl.minSubgroupSize)
    text += ", min_subgroup_size = " +
            std::to_string(q.sizeControl.minSubgroupSize) +
            ", max_subgroup_size = " +
            std::to_string(q.sizeControl.maxSubgroupSize);
  text += ">>";
  return std::move(text);
}

Status Context::deviceInfo(KilnVulkanDeviceInfo &result) {
  KILN_ASSIGN_OR_RETURN(VkPhysicalDevice chosen, choosePhysicalDevice());
  DeviceQuery q(*this, chosen);
  KilnVulkanDeviceInfo *info = &result;
  *info = KilnVulkanDeviceInfo{};
  std::snprintf(info->name, sizeof(info->name), "%s", q.props.deviceName);
  std::snprintf(info->type, sizeof(info->type), "%s",
                deviceTypeName(q.props.deviceType));
  std::snprintf(info->apiVersion, sizeof(info->apiVersion), "%s",
                versionText(q.props.apiVersion).c_str());
  if (q.v12()) {
    // Both names may fill their 256 bytes: cut what does not fit.
    std::string driver =
        std::string(q.driver.driverName) + " " + q.driver.driverInfo;
    std::snprintf(info->driver, sizeof(info->driver), "%s", driver.c_str());
  } else
    std::snprintf(info->driver, sizeof(info->driver), "driver version %u",
                  q.props.driverVersion);
  info->vendorID = q.props.vendorID;
  info->deviceID = q.props.deviceID;
  info->isCPU = q.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  info->float64 = q.features.features.shaderFloat64;
  info->subgroupSize = q.subgroup.subgroupSize;
  info->subgroupArithmetic =
      (q.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      (q.subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  info->timestampPeriodNs = q.props.limits.timestampPeriod;
  info->maxWorkgroupInvocations = q.props.limits.maxComputeWorkGroupInvocations;
  info->maxSharedMemoryBytes = q.props.limits.maxComputeSharedMemorySize;
  info->deviceLocalBytes = deviceLocalBytes(q.memory);
  info->maxStorageBufferRange = q.props.limits.maxStorageBufferRange;
  return Status::success();
}
