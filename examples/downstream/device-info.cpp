//===- device-info.cpp - The Vulkan runtime's C++ interface ---------------===//
//
// Describes the Vulkan devices and the #spirv.target_env Kiln compiles for
// on the one the runtime chooses (KILN_VULKAN_DEVICE), with errors returned
// by the runtime, not printed by it.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include <cstdio>
#include <string>

int main() {
  kiln::rt::Runtime &vulkan = *kilnVulkanRuntime();
  kiln::rt::Expected<std::string> devices = vulkan.describeDevices();
  if (!devices) {
    std::fprintf(stderr, "device-info: %s\n",
                 devices.error().message().c_str());
    return 1;
  }
  std::fputs(devices->c_str(), stdout);
  kiln::rt::Expected<std::string> env = vulkan.deviceTarget();
  if (!env) {
    std::fprintf(stderr, "device-info: %s\n", env.error().message().c_str());
    return 1;
  }
  std::printf("target env: %s\n", env->c_str());
  return 0;
}
