//===- Loader.cpp - Opening the Vulkan loader ------------------------------===//

#include "Loader.h"

#include <dlfcn.h>

using namespace kiln::vk;

bool Functions::openLoader(std::string &error) {
  if (library)
    return true;
  library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    error = std::string("cannot open the Vulkan loader libvulkan.so.1 (") +
            (why ? why : "unknown error") +
            "); install a Vulkan loader and driver (on Debian: libvulkan1 and "
            "mesa-vulkan-drivers)";
    return false;
  }
  vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(library, "vkGetInstanceProcAddr"));
  if (!vkGetInstanceProcAddr) {
    error = "libvulkan.so.1 has no vkGetInstanceProcAddr";
    closeLoader();
    return false;
  }
#define KILN_VK_LOAD_GLOBAL(name)                                              \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(nullptr, #name));
  KILN_VK_GLOBAL_FUNCTIONS(KILN_VK_LOAD_GLOBAL)
#undef KILN_VK_LOAD_GLOBAL
  if (!vkCreateInstance || !vkEnumerateInstanceLayerProperties ||
      !vkEnumerateInstanceExtensionProperties) {
    error = "the Vulkan loader lacks vkCreateInstance";
    closeLoader();
    return false;
  }
  return true;
}

bool Functions::loadInstance(VkInstance instance, std::string &error) {
#define KILN_VK_LOAD_INSTANCE(name)                                            \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));  \
  if (!name) {                                                                 \
    error = "the Vulkan loader has no " #name;                                 \
    return false;                                                              \
  }
  KILN_VK_INSTANCE_FUNCTIONS(KILN_VK_LOAD_INSTANCE)
#undef KILN_VK_LOAD_INSTANCE
#define KILN_VK_LOAD_OPTIONAL(name)                                            \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
  KILN_VK_OPTIONAL_FUNCTIONS(KILN_VK_LOAD_OPTIONAL)
#undef KILN_VK_LOAD_OPTIONAL
  return true;
}

void Functions::closeLoader() {
  if (library)
    dlclose(library);
  library = nullptr;
}

const char *kiln::vk::resultName(VkResult result) {
  switch (result) {
#define KILN_VK_RESULT(name)                                                   \
  case name:                                                                   \
    return #name;
    KILN_VK_RESULT(VK_SUCCESS)
    KILN_VK_RESULT(VK_NOT_READY)
    KILN_VK_RESULT(VK_TIMEOUT)
    KILN_VK_RESULT(VK_EVENT_SET)
    KILN_VK_RESULT(VK_EVENT_RESET)
    KILN_VK_RESULT(VK_INCOMPLETE)
    KILN_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    KILN_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    KILN_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    KILN_VK_RESULT(VK_ERROR_DEVICE_LOST)
    KILN_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    KILN_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    KILN_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    KILN_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    KILN_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    KILN_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    KILN_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    KILN_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    KILN_VK_RESULT(VK_ERROR_UNKNOWN)
    KILN_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    KILN_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    KILN_VK_RESULT(VK_ERROR_FRAGMENTATION)
    KILN_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    KILN_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    KILN_VK_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
    KILN_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef KILN_VK_RESULT
  default:
    return "VK_ERROR_(unknown)";
  }
}
