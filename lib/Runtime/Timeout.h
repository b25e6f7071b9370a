//===- Timeout.h - KILN_TIMEOUT for both runtimes ---------------*- C++ -*-===//
//
// How both runtimes read KILN_TIMEOUT, the longest wait for the device in
// seconds. Standard library only; each runtime words its own messages.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TIMEOUT_H
#define KILN_RUNTIME_TIMEOUT_H

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kiln {
namespace rt {

/// Called after a fatal error's message is printed, before the process
/// ends: set while MPI runs in the process (Common/MPI.cpp), where it ends
/// the whole job (MPI_Abort) instead of leaving the other ranks waiting for
/// this one. Null otherwise; it does not return when set.
inline std::atomic<void (*)()> fatalErrorHook{nullptr};

/// Runs the fatal-error hook, if one is set.
inline void runFatalErrorHook() {
  if (void (*hook)() = fatalErrorHook.load())
    hook();
}

/// Reads `text`, KILN_TIMEOUT's by default, into `seconds` (0 when unset
/// or empty). False with `error` set when it is not a positive number of
/// seconds.
inline bool readTimeout(double &seconds, std::string &error,
                        const char *text = std::getenv("KILN_TIMEOUT")) {
  seconds = 0;
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

/// "WHAT did not complete within S s (KILN_TIMEOUT) on device DEVICE": what
/// a runtime's Timeout error says.
inline std::string timeoutMessage(const std::string &what, double seconds,
                                  const std::string &device) {
  char limit[32];
  std::snprintf(limit, sizeof(limit), "%g", seconds);
  return what + " did not complete within " + limit +
         " s (KILN_TIMEOUT) on device " + device;
}

/// Prints `message` (a timeoutMessage) after "RUNTIME: " and ends the
/// process at once: the device still runs the work, and waiting for it or
/// destroying what it uses at exit would hang or be invalid.
[[noreturn]] inline void stopAfterTimeout(const char *runtime,
                                          const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s; stopping\n", runtime, message.c_str());
  std::fflush(stderr);
  runFatalErrorHook();
  std::_Exit(1);
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_TIMEOUT_H
