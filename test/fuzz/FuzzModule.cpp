//===- FuzzModule.cpp - libFuzzer target: the Vulkan runtime's module load -===//
//
// What mgpuModuleLoad and the first kernel lookup check before a driver
// sees a module: the container or raw SPIR-V, its instruction stream, entry
// points and workgroup sizes (inspectModule), then SPIRV-Tools' validation
// for Vulkan 1.3. Any bytes must be refused with a message or accepted; no
// crash, no out-of-bounds read.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/Vulkan/Context.h"
#include "../../lib/Runtime/Vulkan/ValidateSPIRV.h"

#include <cstdio>
#include <cstdlib>

using namespace kiln::vkrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Module module;
  std::string error;
  if (!inspectModule(data, size, module, error)) {
    if (error.empty()) {
      std::fprintf(stderr, "a module was refused without a message\n");
      std::abort();
    }
    return 0;
  }
  std::string envName;
  error.clear();
  if (!validateSPIRV(module.info.spirv, VK_API_VERSION_1_3, envName, error) &&
      error.empty()) {
    std::fprintf(stderr, "validation failed without a message\n");
    std::abort();
  }
  return 0;
}
