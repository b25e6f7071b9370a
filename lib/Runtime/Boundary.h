//===- Boundary.h - Where the runtimes' errors end the process --*- C++ -*-===//
//
// Both runtimes' internal functions return errors (kiln/Runtime/Status.h);
// the mgpu* entry points, whose ABI has no error returns, end the process
// with them, through orExit here, unless the calling thread gave the library
// an error handler (kilnSetErrorHandler: Kiln's Python package turns the
// error into an exception). Also the scope guard both use to release what a
// failing path created. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BOUNDARY_H
#define KILN_RUNTIME_BOUNDARY_H

#include "Timeout.h"
#include "kiln/Runtime/Status.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

extern "C" {
/// Receives a fatal error of the runtime library on the thread that set it:
/// the runtime's name ("kiln-vulkan") and the message, which is not printed.
/// It must not return: a program that embeds the runtime jumps back to where
/// it called into the library (siglongjmp) and reports the error there.
typedef void (*KilnErrorHandler)(void *user, const char *runtime,
                                 const char *message);
}

namespace kiln {
namespace rt {

/// The calling thread's error handler (kilnSetErrorHandler), one per runtime
/// library.
struct ErrorHandler {
  KilnErrorHandler handler = nullptr;
  void *user = nullptr;
};
inline thread_local ErrorHandler threadErrorHandler;

class Runtime;
/// The runtime whose C++ interface a library's mgpu* entry points call
/// (Common/MGPU.cpp), and the name its errors start with ("kiln-vulkan"):
/// each runtime library defines both.
Runtime &boundaryRuntime();
extern const char *const kBoundaryName;

/// "RUNTIME: MESSAGE" on stderr, after what stdout holds.
inline void printError(const char *runtime, const Status &error) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", runtime, error.message().c_str());
  std::fflush(stderr);
}

/// Reports `error` and ends the process with status 1: through the exit
/// handlers (which release what the runtime created), or after a Timeout at
/// once, because the device still runs the work and they could wait for it.
/// While MPI runs, the fatal-error hook (Timeout.h) ends the whole job
/// instead. An error other than a Timeout goes to the calling thread's error
/// handler first, where one is set; it does not return.
[[noreturn]] inline void exitWith(const char *runtime, const Status &error) {
  if (error.kind() == ErrorKind::Timeout)
    stopAfterTimeout(runtime, error.message());
  if (ErrorHandler handler = threadErrorHandler; handler.handler)
    handler.handler(handler.user, runtime, error.message().c_str());
  printError(runtime, error);
  runFatalErrorHook();
  std::exit(1);
}

/// For the entry points without an error return: `orExit(status)` and
/// `value = orExit(expected)` end the process on an error.
struct ExitOnError {
  const char *runtime;
  void operator()(const Status &status) const {
    if (status)
      exitWith(runtime, status);
  }
  template <typename T> T operator()(Expected<T> value) const {
    if (!value)
      exitWith(runtime, value.error());
    return std::move(*value);
  }
};

/// Runs a function when it goes out of scope, unless dismissed.
template <typename F> class ScopeExit {
public:
  explicit ScopeExit(F f) : f(std::move(f)) {}
  ScopeExit(const ScopeExit &) = delete;
  ScopeExit &operator=(const ScopeExit &) = delete;
  ~ScopeExit() {
    if (armed)
      f();
  }
  void dismiss() { armed = false; }

private:
  F f;
  bool armed = true;
};
template <typename F> ScopeExit(F) -> ScopeExit<F>;

} // namespace rt
} // namespace kiln

/// Sets the calling thread's error handler (null: none, errors end the
/// process) and returns the one it replaces. Every library that includes
/// this header exports it, as a plain C symbol a program finds with dlsym.
extern "C" __attribute__((visibility("default"), used)) inline void
kilnSetErrorHandler(KilnErrorHandler handler, void *user,
                    KilnErrorHandler *previous, void **previousUser) {
  kiln::rt::ErrorHandler &slot = kiln::rt::threadErrorHandler;
  if (previous)
    *previous = slot.handler;
  if (previousUser)
    *previousUser = slot.user;
  slot = {handler, user};
}

#endif // KILN_RUNTIME_BOUNDARY_H
