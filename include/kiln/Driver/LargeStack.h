//===- LargeStack.h - Tools run on a thread with a large stack -*- C++ -*-===//
//
// MLIR's parser, verifier and printer recurse once per nested region: about
// 5,000 nested regions overflow the 8 MiB main thread and the tool crashes
// (SIGSEGV) instead of compiling or reporting. Kiln's tools run their main
// on a thread whose stack is reserved large (its pages are committed only
// as they are used).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_LARGESTACK_H
#define KILN_DRIVER_LARGESTACK_H

#include "kiln/Driver/CrashWatchdog.h"

#include "llvm/Support/thread.h"

#include <optional>
#include <signal.h>

namespace kiln {
namespace driver {

/// The stack reserved for a tool's main: 1 GiB, enough for about 500,000
/// nested regions.
constexpr unsigned kToolStackBytes = 1u << 30;

/// Runs `body` (returning an exit status) on a thread with a
/// kToolStackBytes stack and returns its status. A tool's main: the crash
/// watchdog (CrashWatchdog.h) is installed first.
template <typename F> int onLargeStack(F &&body) {
  installCrashWatchdog();
  int status = 0;
  llvm::thread worker(std::optional<unsigned>(kToolStackBytes), [&] {
    // LLVM's signal handling may give the thread a larger alternate signal
    // stack of its own (malloc'ed); the sanitizers, which made the first,
    // unmap whatever is installed when the thread ends (munmap of a
    // malloc'ed block: "AddressSanitizer failed to deallocate"). Theirs
    // goes back before the thread ends.
    stack_t original;
    bool restore = sigaltstack(nullptr, &original) == 0;
    status = body();
    if (restore)
      sigaltstack(&original, nullptr);
  });
  worker.join();
  return status;
}

} // namespace driver
} // namespace kiln

#endif // KILN_DRIVER_LARGESTACK_H
