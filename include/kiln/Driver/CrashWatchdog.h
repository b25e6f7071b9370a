//===- CrashWatchdog.h - A crash report that cannot hang -------*- C++ -*-===//
//
// When a tool crashes, LLVM's signal handler prints a stack trace, which
// unwinds and allocates. If the crash came from corrupted memory (an
// unchecked kernel on the spirv-cpu target writing outside its buffers, so
// that malloc aborted while holding its lock) the report waits for that lock
// forever, and KILN_TIMEOUT, which bounds launches, cannot end it. The
// watchdog runs first among the crash handlers and starts a timer: a report
// that has not finished after kCrashReportSeconds ends the process with a
// message and exit status 134 (as an abort). The timer is a POSIX timer on
// a signal of its own, made at startup: LLVM's report itself uses and then
// cancels alarm(), so an alarm armed before it never fires.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_CRASHWATCHDOG_H
#define KILN_DRIVER_CRASHWATCHDOG_H

#include "llvm/Support/Signals.h"

#include <csignal>
#include <cstring>
#include <ctime>
#include <signal.h>
#include <time.h>
#include <unistd.h>

namespace kiln {
namespace driver {

constexpr unsigned kCrashReportSeconds = 10;

namespace detail {
/// A signal no one else uses: glibc takes the first real-time ones.
inline int crashTimerSignal() { return SIGRTMAX - 1; }
inline timer_t crashTimer;

inline void onCrashReportTimeout(int) {
  // Written from a signal handler, so not formatted from the constant.
  static_assert(kCrashReportSeconds == 10, "the message below says 10 s");
  static const char message[] =
      "\nkiln: the crash report did not finish within 10 s (memory the "
      "program corrupted can hang it); exiting\n";
  (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
  _exit(134);
}

inline void startCrashTimer(void *) {
  // timer_settime is async-signal-safe.
  struct itimerspec spec;
  std::memset(&spec, 0, sizeof(spec));
  spec.it_value.tv_sec = kCrashReportSeconds;
  timer_settime(crashTimer, 0, &spec, nullptr);
}
} // namespace detail

/// Call once, before llvm::InitLLVM, so that the timer starts before the
/// stack trace is printed. Without a timer (timer_create failed) crash
/// reports are as LLVM makes them.
inline void installCrashWatchdog() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = &detail::onCrashReportTimeout;
  sigemptyset(&action.sa_mask);
  struct sigevent event;
  std::memset(&event, 0, sizeof(event));
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = detail::crashTimerSignal();
  if (sigaction(detail::crashTimerSignal(), &action, nullptr) != 0 ||
      timer_create(CLOCK_MONOTONIC, &event, &detail::crashTimer) != 0)
    return;
  llvm::sys::AddSignalHandler(&detail::startCrashTimer, nullptr);
}

} // namespace driver
} // namespace kiln

#endif // KILN_DRIVER_CRASHWATCHDOG_H
