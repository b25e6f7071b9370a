//===- Fiber.h - Stacks and context switches for invocations ----*- C++ -*-===//
//
// A fiber runs one invocation of a kernel that waits (barriers, subgroup
// operations, checked mode) on its own stack, switched to and from by the
// worker thread that schedules its workgroup. x86-64 switches with a few
// instructions of assembly (callee-saved registers, MXCSR and the x87
// control word); other targets use ucontext. Switches are annotated for
// AddressSanitizer and ThreadSanitizer. A fiber is never unwound: one that
// is abandoned (its workgroup failed) is simply started again from its
// entry later.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_FIBER_H
#define KILN_RUNTIME_SPIRVCPU_FIBER_H

#include "kiln/Runtime/Status.h"

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace kiln {
namespace spirvcpu {

/// An mmap'd stack with a guard page below it.
class FiberStack {
public:
  FiberStack() = default;
  FiberStack(const FiberStack &) = delete;
  FiberStack &operator=(const FiberStack &) = delete;
  ~FiberStack();

  /// Maps `bytes` (a multiple of the page size) plus the guard page.
  rt::Status allocate(size_t bytes);
  /// The lowest usable byte, and the usable size.
  void *bottom() const { return bottom_; }
  size_t size() const { return size_; }

private:
  void *mapping_ = nullptr;
  size_t mappingBytes_ = 0;
  void *bottom_ = nullptr;
  size_t size_ = 0;
};

/// Where a suspended thread of control resumes: a worker's own stack or a
/// fiber's.
struct FiberContext {
  FiberContext() = default;
  FiberContext(const FiberContext &) = delete;
  FiberContext &operator=(const FiberContext &) = delete;
  ~FiberContext();

#if defined(__x86_64__)
  void *sp = nullptr;
#else
  ucontext_t context;
  void (*entry)(void *) = nullptr;
  void *arg = nullptr;
#endif
  /// The stack this context runs on (null: the thread's own, learnt from
  /// AddressSanitizer at the first switch away from it).
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
  /// AddressSanitizer's fake stack of this context while suspended.
  void *fakeStack = nullptr;
  /// ThreadSanitizer's record of this context (null: none yet; a thread's
  /// own is learnt at the first switch away from it), and whether it was
  /// made for this context (prepareFiber), which then destroys it.
  void *tsanFiber = nullptr;
  bool ownsTsanFiber = false;
};

/// Makes `fiber` start `entry(arg)` on `stack` when it is next switched to.
/// `entry` must never return: it ends by switching away for good
/// (switchFiber with `finished`).
void prepareFiber(FiberContext &fiber, FiberStack &stack, void (*entry)(void *),
                  void *arg);

/// Suspends `from` and resumes `to`. `finished`: `from` never resumes (its
/// stack may be reused).
void switchFiber(FiberContext &from, FiberContext &to, bool finished = false);

/// The first thing a fiber's entry does: completes the switch into it and
/// learns the stack of the context that switched (`from`).
void enterFiber(FiberContext &from);

} // namespace spirvcpu
} // namespace kiln

#endif // KILN_RUNTIME_SPIRVCPU_FIBER_H
