//===- Loader.h - The Vulkan entry points Kiln's runtime uses ----*- C++ -*-===//
//
// The runtime opens libvulkan.so.1 itself (so a machine without a loader gets
// a message, not a dynamic-linker failure) and loads every entry point it
// uses through vkGetInstanceProcAddr into one table.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_LOADER_H
#define KILN_RUNTIME_VULKAN_LOADER_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

namespace kiln::vk {

#define KILN_VK_GLOBAL_FUNCTIONS(X)                                            \
  X(vkCreateInstance)                                                          \
  X(vkEnumerateInstanceLayerProperties)                                        \
  X(vkEnumerateInstanceExtensionProperties)                                    \
  X(vkEnumerateInstanceVersion)

#define KILN_VK_INSTANCE_FUNCTIONS(X)                                          \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)                                                            \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkDeviceWaitIdle)                                                          \
  X(vkQueueSubmit)                                                             \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreatePipelineCache)                                                     \
  X(vkDestroyPipelineCache)                                                    \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkResetDescriptorPool)                                                     \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkResetCommandBuffer)                                                      \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdPushConstants)                                                        \
  X(vkCmdDispatch)                                                             \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdFillBuffer)                                                           \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkGetQueryPoolResults)                                                     \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkWaitForFences)                                                           \
  X(vkResetFences)                                                             \
  X(vkGetFenceStatus)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkUnmapMemory)                                                             \
  X(vkInvalidateMappedMemoryRanges)                                            \
  X(vkFlushMappedMemoryRanges)

// Extension entry points, and Vulkan 1.2 ones: null when the extension (or
// version) is absent.
#define KILN_VK_OPTIONAL_FUNCTIONS(X)                                          \
  X(vkCreateDebugUtilsMessengerEXT)                                            \
  X(vkDestroyDebugUtilsMessengerEXT)                                           \
  X(vkGetMemoryHostPointerPropertiesEXT)                                       \
  X(vkGetBufferDeviceAddress)

struct Functions {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define KILN_VK_DECLARE(name) PFN_##name name = nullptr;
  KILN_VK_GLOBAL_FUNCTIONS(KILN_VK_DECLARE)
  KILN_VK_INSTANCE_FUNCTIONS(KILN_VK_DECLARE)
  KILN_VK_OPTIONAL_FUNCTIONS(KILN_VK_DECLARE)
#undef KILN_VK_DECLARE

  /// Opens the loader and loads the global entry points.
  bool openLoader(std::string &error);
  /// Loads the instance-level (and, through the loader's trampolines,
  /// device-level) entry points.
  bool loadInstance(VkInstance instance, std::string &error);
  void closeLoader();

  void *library = nullptr;
};

/// The name of a VkResult, e.g. "VK_ERROR_DEVICE_LOST".
const char *resultName(VkResult result);

} // namespace kiln::vk

#endif // KILN_RUNTIME_VULKAN_LOADER_H
