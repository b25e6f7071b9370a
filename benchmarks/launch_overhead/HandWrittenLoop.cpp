//===- HandWrittenLoop.cpp - Minimal synchronous Vulkan launch loop -------===//
//
// Deliberately plain Vulkan: no helpers beyond what error reporting and
// cleanup need, so that the timed loop is exactly what an expert would write.
//
//===----------------------------------------------------------------------===//

#include "HandWrittenLoop.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

using namespace kiln::bench;

namespace {

std::string resultName(VkResult result) {
#define KILN_NAME(code)                                                        \
  { code, #code }
  static const std::pair<VkResult, const char *> names[] = {
      KILN_NAME(VK_NOT_READY),
      KILN_NAME(VK_TIMEOUT),
      KILN_NAME(VK_INCOMPLETE),
      KILN_NAME(VK_ERROR_OUT_OF_HOST_MEMORY),
      KILN_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY),
      KILN_NAME(VK_ERROR_INITIALIZATION_FAILED),
      KILN_NAME(VK_ERROR_DEVICE_LOST),
      KILN_NAME(VK_ERROR_MEMORY_MAP_FAILED),
      KILN_NAME(VK_ERROR_LAYER_NOT_PRESENT),
      KILN_NAME(VK_ERROR_EXTENSION_NOT_PRESENT),
      KILN_NAME(VK_ERROR_FEATURE_NOT_PRESENT),
      KILN_NAME(VK_ERROR_INCOMPATIBLE_DRIVER),
      KILN_NAME(VK_ERROR_TOO_MANY_OBJECTS),
      KILN_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED),
      KILN_NAME(VK_ERROR_FRAGMENTED_POOL),
      KILN_NAME(VK_ERROR_OUT_OF_POOL_MEMORY),
      KILN_NAME(VK_ERROR_VALIDATION_FAILED_EXT)};
#undef KILN_NAME
  for (const auto &[code, name] : names)
    if (code == result)
      return name;
  // Codes from newer headers (e.g. VK_ERROR_UNKNOWN = -13) read as numbers.
  return "VkResult(" + std::to_string(int(result)) + ")";
}

/// Whether `spirv` declares a GLCompute OpEntryPoint named `name`. Checked up
/// front because drivers may crash, not fail, on a missing entry point.
bool hasComputeEntryPoint(const std::vector<uint32_t> &spirv,
                          const std::string &name) {
  const uint32_t opEntryPoint = 15, glCompute = 5;
  for (size_t i = 5; i < spirv.size();) {
    uint32_t words = spirv[i] >> 16;
    if (words == 0 || i + words > spirv.size())
      return false;
    // Literal strings pack their first byte lowest, i.e. in memory order on
    // the little-endian hosts Vulkan runs on.
    if ((spirv[i] & 0xffff) == opEntryPoint && words > 3 &&
        spirv[i + 1] == glCompute) {
      const char *literal = reinterpret_cast<const char *>(&spirv[i + 3]);
      const char *limit = literal + (words - 3) * sizeof(uint32_t);
      if (name == std::string(literal, std::find(literal, limit, '\0')))
        return true;
    }
    i += words;
  }
  return false;
}

/// Every handle the benchmark creates; the destructor releases whatever was
/// created, in reverse order, so each failure path is a plain `return false`.
struct Objects {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkShaderModule shader = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

  ~Objects() {
    if (device) {
      // A failed wait may leave the command buffer pending; drain it first.
      vkDeviceWaitIdle(device);
      vkDestroyFence(device, fence, nullptr);
      vkDestroyCommandPool(device, commandPool, nullptr);
      vkDestroyDescriptorPool(device, descriptorPool, nullptr);
      vkDestroyPipeline(device, pipeline, nullptr);
      vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
      vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
      vkDestroyShaderModule(device, shader, nullptr);
      vkDestroyBuffer(device, buffer, nullptr);
      vkFreeMemory(device, memory, nullptr);
      vkDestroyDevice(device, nullptr);
    }
    if (instance)
      vkDestroyInstance(instance, nullptr);
  }
};

/// Same rule as Kiln's runtime (lib/Runtime/Vulkan/Context.cpp):
/// KILN_VULKAN_DEVICE is an index when it is all digits, else a substring of
/// the device name; unset, the first device of the most capable type wins.
bool chooseDevice(VkInstance instance, VkPhysicalDevice &chosen,
                  std::string &error) {
  uint32_t count = 0;
  VkResult result = vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (result == VK_SUCCESS)
    result = vkEnumeratePhysicalDevices(instance, &count, devices.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    error = "vkEnumeratePhysicalDevices: " + resultName(result);
    return false;
  }
  devices.resize(count);
  if (devices.empty()) {
    error = "no Vulkan physical device";
    return false;
  }
  std::vector<VkPhysicalDeviceProperties> props(count);
  for (uint32_t i = 0; i < count; ++i)
    vkGetPhysicalDeviceProperties(devices[i], &props[i]);

  const char *env = std::getenv("KILN_VULKAN_DEVICE");
  if (env && *env) {
    if (std::strspn(env, "0123456789") == std::strlen(env)) {
      unsigned long index = std::strtoul(env, nullptr, 10);
      if (index >= count) {
        error = std::string("KILN_VULKAN_DEVICE=") + env + ": only " +
                std::to_string(count) + " device(s)";
        return false;
      }
      chosen = devices[index];
      return true;
    }
    // Case-insensitive, as in the runtime.
    auto lower = [](std::string text) {
      for (char &c : text)
        c = std::tolower(static_cast<unsigned char>(c));
      return text;
    };
    for (uint32_t i = 0; i < count; ++i) {
      if (lower(props[i].deviceName).find(lower(env)) != std::string::npos) {
        chosen = devices[i];
        return true;
      }
    }
    error = std::string("KILN_VULKAN_DEVICE=") + env + ": no device matches";
    return false;
  }

  // The runtime falls back to OTHER devices and then to the first one.
  for (VkPhysicalDeviceType type :
       {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
        VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
        VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU,
        VK_PHYSICAL_DEVICE_TYPE_OTHER}) {
    for (uint32_t i = 0; i < count; ++i) {
      if (props[i].deviceType == type) {
        chosen = devices[i];
        return true;
      }
    }
  }
  chosen = devices.front();
  return true;
}

} // namespace

bool kiln::bench::runHandWrittenLoop(const std::vector<uint32_t> &spirv,
                                     const std::string &entryPoint,
                                     uint32_t groups, uint64_t bufferBytes,
                                     unsigned warmup, unsigned launches,
                                     HandWrittenResult &result,
                                     std::string &error) {
  if (spirv.size() < 5 || spirv[0] != 0x07230203u) {
    error = "not a SPIR-V module";
    return false;
  }
  if (!hasComputeEntryPoint(spirv, entryPoint)) {
    error = "no GLCompute entry point named '" + entryPoint + "'";
    return false;
  }
  if (bufferBytes == 0) {
    error = "zero-sized buffer";
    return false;
  }
  Objects objs;
  // Records the first failing call; used as `if (failed(...)) return false`.
  auto failed = [&](VkResult r, const char *call) {
    if (r == VK_SUCCESS)
      return false;
    error = std::string(call) + ": " + resultName(r);
    return true;
  };

  VkApplicationInfo appInfo{};
  appInfo.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  appInfo.pApplicationName = "kiln-launch-overhead";
  appInfo.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instanceInfo{};
  instanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instanceInfo.pApplicationInfo = &appInfo;
  if (failed(vkCreateInstance(&instanceInfo, nullptr, &objs.instance),
             "vkCreateInstance"))
    return false;

  VkPhysicalDevice physical = VK_NULL_HANDLE;
  if (!chooseDevice(objs.instance, physical, error))
    return false;
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical, &props);
  if (groups > props.limits.maxComputeWorkGroupCount[0]) {
    error = std::to_string(groups) + " workgroups exceed the device's limit " +
            std::to_string(props.limits.maxComputeWorkGroupCount[0]);
    return false;
  }

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount,
                                           families.data());
  uint32_t family = familyCount;
  for (uint32_t i = 0; i < familyCount && family == familyCount; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family = i;
  if (family == familyCount) {
    error = std::string("no compute queue family on ") + props.deviceName;
    return false;
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo{};
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  if (failed(vkCreateDevice(physical, &deviceInfo, nullptr, &objs.device),
             "vkCreateDevice"))
    return false;
  VkDevice device = objs.device;
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  // The storage buffer, in device-local memory when the buffer allows it.
  VkBufferCreateInfo bufferInfo{};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bufferInfo.size = bufferBytes;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (failed(vkCreateBuffer(device, &bufferInfo, nullptr, &objs.buffer),
             "vkCreateBuffer"))
    return false;
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, objs.buffer, &requirements);
  VkPhysicalDeviceMemoryProperties memProps;
  vkGetPhysicalDeviceMemoryProperties(physical, &memProps);
  // The first DEVICE_LOCAL type wins over the first allowed type.
  uint32_t memoryType = UINT32_MAX;
  for (uint32_t i = 0; i < memProps.memoryTypeCount; ++i) {
    if (!(requirements.memoryTypeBits & (1u << i)))
      continue;
    if (memProps.memoryTypes[i].propertyFlags &
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) {
      memoryType = i;
      break;
    }
    if (memoryType == UINT32_MAX)
      memoryType = i;
  }
  if (memoryType == UINT32_MAX) {
    error = "no memory type can hold the storage buffer";
    return false;
  }
  VkMemoryAllocateInfo allocInfo{};
  allocInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocInfo.allocationSize = requirements.size;
  allocInfo.memoryTypeIndex = memoryType;
  if (failed(vkAllocateMemory(device, &allocInfo, nullptr, &objs.memory),
             "vkAllocateMemory") ||
      failed(vkBindBufferMemory(device, objs.buffer, objs.memory, 0),
             "vkBindBufferMemory"))
    return false;

  // Pipeline: one storage buffer at (set 0, binding 0), no push constants.
  VkShaderModuleCreateInfo shaderInfo{};
  shaderInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  shaderInfo.codeSize = spirv.size() * sizeof(uint32_t);
  shaderInfo.pCode = spirv.data();
  if (failed(vkCreateShaderModule(device, &shaderInfo, nullptr, &objs.shader),
             "vkCreateShaderModule"))
    return false;
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                       VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo setLayoutInfo{};
  setLayoutInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  setLayoutInfo.bindingCount = 1;
  setLayoutInfo.pBindings = &binding;
  if (failed(vkCreateDescriptorSetLayout(device, &setLayoutInfo, nullptr,
                                         &objs.setLayout),
             "vkCreateDescriptorSetLayout"))
    return false;
  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &objs.setLayout;
  if (failed(vkCreatePipelineLayout(device, &layoutInfo, nullptr,
                                    &objs.pipelineLayout),
             "vkCreatePipelineLayout"))
    return false;
  VkComputePipelineCreateInfo pipelineInfo{};
  pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = objs.shader;
  pipelineInfo.stage.pName = entryPoint.c_str();
  pipelineInfo.layout = objs.pipelineLayout;
  if (failed(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo,
                                      nullptr, &objs.pipeline),
             "vkCreateComputePipelines"))
    return false;

  // The descriptor set is written once; every launch binds the same one.
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  if (failed(vkCreateDescriptorPool(device, &poolInfo, nullptr,
                                    &objs.descriptorPool),
             "vkCreateDescriptorPool"))
    return false;
  VkDescriptorSetAllocateInfo setInfo{};
  setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  setInfo.descriptorPool = objs.descriptorPool;
  setInfo.descriptorSetCount = 1;
  setInfo.pSetLayouts = &objs.setLayout;
  VkDescriptorSet set;
  if (failed(vkAllocateDescriptorSets(device, &setInfo, &set),
             "vkAllocateDescriptorSets"))
    return false;
  VkDescriptorBufferInfo descBuffer{objs.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &descBuffer;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

  // RESET_COMMAND_BUFFER lets vkBeginCommandBuffer reset the buffer itself.
  VkCommandPoolCreateInfo cmdPoolInfo{};
  cmdPoolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  cmdPoolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  cmdPoolInfo.queueFamilyIndex = family;
  if (failed(
          vkCreateCommandPool(device, &cmdPoolInfo, nullptr, &objs.commandPool),
          "vkCreateCommandPool"))
    return false;
  VkCommandBufferAllocateInfo cmdInfo{};
  cmdInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cmdInfo.commandPool = objs.commandPool;
  cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cmdInfo.commandBufferCount = 1;
  VkCommandBuffer cmd;
  if (failed(vkAllocateCommandBuffers(device, &cmdInfo, &cmd),
             "vkAllocateCommandBuffers"))
    return false;
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (failed(vkCreateFence(device, &fenceInfo, nullptr, &objs.fence),
             "vkCreateFence"))
    return false;

  VkCommandBufferBeginInfo beginInfo{};
  beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &cmd;
  // One synchronous launch, re-recorded every time as a generic launcher must.
  auto launch = [&]() {
    if (failed(vkBeginCommandBuffer(cmd, &beginInfo), "vkBeginCommandBuffer"))
      return false;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, objs.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                            objs.pipelineLayout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, groups, 1, 1);
    return !failed(vkEndCommandBuffer(cmd), "vkEndCommandBuffer") &&
           !failed(vkQueueSubmit(queue, 1, &submitInfo, objs.fence),
                   "vkQueueSubmit") &&
           !failed(vkWaitForFences(device, 1, &objs.fence, VK_TRUE, UINT64_MAX),
                   "vkWaitForFences") &&
           !failed(vkResetFences(device, 1, &objs.fence), "vkResetFences");
  };

  for (unsigned i = 0; i < warmup; ++i)
    if (!launch())
      return false;
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < launches; ++i)
    if (!launch())
      return false;
  auto stop = std::chrono::steady_clock::now();

  double us = std::chrono::duration<double, std::micro>(stop - start).count();
  result.microsecondsPerLaunch = launches ? us / launches : 0.0;
  result.deviceName = props.deviceName;
  return true;
}
