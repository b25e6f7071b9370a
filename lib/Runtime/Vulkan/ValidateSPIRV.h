//===- ValidateSPIRV.h - SPIRV-Tools' validator before the driver -*- C++ -*-===//
//
// The shared runtime validates a module's SPIR-V with SPIRV-Tools for the
// device's Vulkan version before it reaches the driver: drivers crash on
// SPIR-V that is well formed as an instruction stream but invalid. The
// static runtime that AOT executables link leaves the validator out (it
// would add megabytes to each); their SPIR-V was validated by kiln-compile.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_RUNTIME_VULKAN_VALIDATESPIRV_H
#define KILN_LIB_RUNTIME_VULKAN_VALIDATESPIRV_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::vkrt {

/// Whether this build of the runtime carries the validator.
bool haveSPIRVValidator();

/// Validates `words` for a device of Vulkan `apiVersion` (VK_MAKE_VERSION).
/// On failure returns false with the validator's messages in `error` and
/// the environment's name in `envName`.
bool validateSPIRV(const std::vector<uint32_t> &words, uint32_t apiVersion,
                   std::string &envName, std::string &error);

} // namespace kiln::vkrt

#endif // KILN_LIB_RUNTIME_VULKAN_VALIDATESPIRV_H
