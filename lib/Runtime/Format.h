//===- Format.h - Message text both runtimes build --------------*- C++ -*-===//
//
// Small text helpers the Vulkan and the CUDA runtime share for their device
// listings and error messages. Standard library only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_FORMAT_H
#define KILN_RUNTIME_FORMAT_H

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace kiln {
namespace rt {

/// "N bytes (X.Y GiB)".
inline std::string describeBytes(uint64_t bytes) {
  char text[64];
  std::snprintf(text, sizeof(text), "%" PRIu64 " bytes (%.1f GiB)", bytes,
                bytes / double(1ull << 30));
  return text;
}

/// Appends printf-formatted text to `out`.
[[gnu::format(printf, 2, 3)]] inline void appendf(std::string &out,
                                                  const char *format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (length > 0) {
    size_t at = out.size();
    out.resize(at + size_t(length) + 1);
    std::vsnprintf(&out[at], size_t(length) + 1, format, again);
    out.resize(at + size_t(length));
  }
  va_end(again);
}

/// "'a', 'b'": names for a message.
inline std::string quotedList(const std::vector<std::string> &names) {
  std::string list;
  for (const std::string &name : names)
    list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_FORMAT_H
