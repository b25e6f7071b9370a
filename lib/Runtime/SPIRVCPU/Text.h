//===- Text.h - Text the spirv-cpu runtime's errors share -------*- C++ -*-===//
//
// How the spirv-cpu runtime's errors name a handle or a hash. Standard
// library only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_TEXT_H
#define KILN_RUNTIME_SPIRVCPU_TEXT_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace kiln::spirvcpu {

/// A handle as "%p" prints it.
inline std::string pointerText(const void *p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}

/// A SPIR-V hash as "0x" and 16 hexadecimal digits.
inline std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%016llx", (unsigned long long)value);
  return text;
}

} // namespace kiln::spirvcpu

#endif // KILN_RUNTIME_SPIRVCPU_TEXT_H
