//===- ValidateSPIRV.cpp - SPIRV-Tools' validator before the driver -------===//

#include "ValidateSPIRV.h"

#include <vulkan/vulkan_core.h>

#ifdef KILN_RUNTIME_SPIRV_VALIDATOR
#include "spirv-tools/libspirv.hpp"
#endif

using namespace kiln::vkrt;

#ifdef KILN_RUNTIME_SPIRV_VALIDATOR

bool kiln::vkrt::haveSPIRVValidator() { return true; }

bool kiln::vkrt::validateSPIRV(const std::vector<uint32_t> &words,
                               uint32_t apiVersion, std::string &envName,
                               std::string &error) {
  // The newest environment the device's Vulkan version defines; SPIR-V 1.4
  // on Vulkan 1.1 needs VK_KHR_spirv_1_4, which the capability check at
  // load does not cover, so it is validated as 1.1 allows.
  spv_target_env env = SPV_ENV_VULKAN_1_1;
  envName = "vulkan1.1";
  if (apiVersion >= VK_API_VERSION_1_3) {
    env = SPV_ENV_VULKAN_1_3;
    envName = "vulkan1.3";
  } else if (apiVersion >= VK_API_VERSION_1_2) {
    env = SPV_ENV_VULKAN_1_2;
    envName = "vulkan1.2";
  }
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &, const char *message) {
    error += error.empty() ? "" : "; ";
    error += message;
  });
  spvtools::ValidatorOptions options;
  return tools.Validate(words.data(), words.size(), options);
}

#else

bool kiln::vkrt::haveSPIRVValidator() { return false; }

bool kiln::vkrt::validateSPIRV(const std::vector<uint32_t> &, uint32_t,
                               std::string &, std::string &) {
  return true;
}

#endif
