//===- RunnerMain.h - What Kiln's runners share ----------------*- C++ -*-===//
//
// The runners are kiln::driver::run (lib/Driver/Run.cpp) over a Kiln
// pipeline with the runtime the tool links; these helpers are the runner
// options and answers that talk to that runtime.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNNERS_RUNNERMAIN_H
#define KILN_RUNNERS_RUNNERMAIN_H

#include "kiln/Runtime/Runtime.h"

#include "llvm/Support/CommandLine.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kiln {

/// `--timeout=SECONDS`, the same on every runner, in the runner's option
/// `category`; applyTimeoutOption() puts it in the runtime's options (where
/// it wins over KILN_TIMEOUT).
inline llvm::cl::opt<std::string> &
timeoutOption(llvm::cl::OptionCategory &category) {
  static llvm::cl::opt<std::string> option(
      "timeout",
      llvm::cl::desc("Stop with an error naming the kernel when a wait for "
                     "the device lasts longer than this many seconds (also "
                     "KILN_TIMEOUT)"),
      llvm::cl::value_desc("seconds"), llvm::cl::init(""),
      llvm::cl::cat(category));
  return option;
}

/// `--mpi=openmpi|mpich`, the same on every runner, in the runner's option
/// `category`: the MPI the program's mpi ops call
/// (driver::TargetOptions::mpi).
inline llvm::cl::opt<std::string> &
mpiOption(llvm::cl::OptionCategory &category) {
  static llvm::cl::opt<std::string> option(
      "mpi",
      llvm::cl::desc("The MPI the program's mpi ops call: openmpi (default) "
                     "or mpich"),
      llvm::cl::value_desc("name"), llvm::cl::init(""),
      llvm::cl::cat(category));
  return option;
}

inline void applyTimeoutOption(const llvm::cl::opt<std::string> &option,
                               rt::Options &options) {
  if (!option.empty())
    options.timeout = option;
}

/// Hands the command line's `options` to `runtime` before it starts;
/// reports an error as the runtime's own messages read and returns 1.
inline int configureRuntime(rt::Runtime &runtime, const char *name,
                            const rt::Options &options) {
  if (rt::Status error = runtime.configure(options)) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", name, error.message().c_str());
    return 1;
  }
  return 0;
}

/// Prints an error the runtime's C++ interface returned as the runtime's
/// own messages read ("kiln-vulkan: ..."); returns the exit status, 1.
inline int reportRuntimeError(const char *runtime, const rt::Status &error) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", runtime, error.message().c_str());
  return 1;
}

/// `--list-devices`: the runtime's description of every device on stdout.
inline int listRuntimeDevices(rt::Runtime &runtime, const char *name) {
  rt::Expected<std::string> text = runtime.describeDevices();
  if (!text)
    return reportRuntimeError(name, text.error());
  std::fputs(text->c_str(), stdout);
  return 0;
}

/// `--print-target-env` / `--print-chip`: what the chosen device's kernels
/// are compiled for, on stdout.
inline int printRuntimeTarget(rt::Runtime &runtime, const char *name) {
  rt::Expected<std::string> text = runtime.deviceTarget();
  if (!text)
    return reportRuntimeError(name, text.error());
  std::printf("%s\n", text->c_str());
  return 0;
}

} // namespace kiln

#endif // KILN_RUNNERS_RUNNERMAIN_H
