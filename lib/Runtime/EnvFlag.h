//===- EnvFlag.h - One truth table for the runtimes' flags ------*- C++ -*-===//
//
// The runtimes' on/off environment variables (KILN_VULKAN_TIMING,
// KILN_CUDA_TIMING, KILN_SPIRV_CPU_TIMING, KILN_VULKAN_VALIDATION, ...) all
// read through envFlag, so that one value means one thing everywhere (each
// runtime parsed its own before, and KILN_CUDA_TIMING=false turned timing
// on).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_ENVFLAG_H
#define KILN_RUNTIME_ENVFLAG_H

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>

namespace kiln {
namespace rt {

/// Whether `value` turns a flag on: unset, empty, "0", "false", "off" and
/// "no" (in any case) are off; anything else is on.
inline bool flagValue(const char *value) {
  if (!value || !*value)
    return false;
  std::string v(value);
  for (char &c : v)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return v != "0" && v != "false" && v != "off" && v != "no";
}

/// The environment variable `name` as a flag (flagValue).
inline bool envFlag(const char *name) { return flagValue(std::getenv(name)); }

/// A setting's text: what the program gave (rt::Options), else environment
/// variable `name`'s; null when neither is set.
inline const char *settingText(const std::optional<std::string> &given,
                               const char *name) {
  return given ? given->c_str() : std::getenv(name);
}

/// A flag: what the program gave, else environment variable `name`.
inline bool settingFlag(const std::optional<bool> &given, const char *name) {
  return given ? *given : envFlag(name);
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_ENVFLAG_H
