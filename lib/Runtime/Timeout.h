//===- Timeout.h - KILN_TIMEOUT for both runtimes ---------------*- C++ -*-===//
//
// How both runtimes read KILN_TIMEOUT, the longest wait for the device in
// seconds. Standard library only; each runtime words its own messages.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TIMEOUT_H
#define KILN_RUNTIME_TIMEOUT_H

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kiln {
namespace rt {

/// Reads KILN_TIMEOUT into `seconds` (0 when unset or empty). False with
/// `error` set when it is not a positive number of seconds.
inline bool readTimeout(double &seconds, std::string &error) {
  seconds = 0;
  const char *text = std::getenv("KILN_TIMEOUT");
  if (!text || !*text)
    return true;
  char *end = nullptr;
  seconds = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(seconds > 0) || seconds > 1e9) {
    error = std::string("KILN_TIMEOUT='") + text +
            "' is not a positive number of seconds";
    seconds = 0;
    return false;
  }
  return true;
}

/// Reports that `what` did not complete within `seconds` on `device` and
/// ends the process at once: the device still runs the work, and waiting
/// for it or destroying what it uses at exit would hang or be invalid.
/// `runtime` is the message prefix ("kiln-vulkan").
[[noreturn]] inline void stopAfterTimeout(const char *runtime,
                                          const std::string &what,
                                          double seconds,
                                          const std::string &device) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "%s: %s did not complete within %g s (KILN_TIMEOUT) on "
               "device %s; stopping\n",
               runtime, what.c_str(), seconds, device.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_TIMEOUT_H
