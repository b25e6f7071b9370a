//===- Fiber.cpp - Stacks and context switches for invocations ------------===//
//
// x86-64: kiln_spirv_cpu_switch_context(save, to) pushes the callee-saved
// registers (System V: rbp, rbx, r12-r15) and MXCSR / the x87 control word
// on the current stack, stores the stack pointer in *save, loads `to` and
// pops the same from there. A new fiber's stack holds such a frame whose
// return address is kiln_spirv_cpu_fiber_start, which calls entry(arg) from
// r13 and r12 with the stack 16-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "Fiber.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_ASAN 1
#endif
#endif
#if !defined(KILN_ASAN) && defined(__SANITIZE_ADDRESS__)
#define KILN_ASAN 1
#endif
#ifdef KILN_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KILN_TSAN 1
#endif
#endif
#if !defined(KILN_TSAN) && defined(__SANITIZE_THREAD__)
#define KILN_TSAN 1
#endif
#ifdef KILN_TSAN
#include <sanitizer/tsan_interface.h>
#endif

using namespace kiln;
using namespace kiln::spirvcpu;

#if defined(__x86_64__)
extern "C" void kiln_spirv_cpu_switch_context(void **save, void *to);
extern "C" void kiln_spirv_cpu_fiber_start();

asm(R"(
  .text
  .p2align 4
  .globl kiln_spirv_cpu_switch_context
  .hidden kiln_spirv_cpu_switch_context
  .type kiln_spirv_cpu_switch_context, @function
kiln_spirv_cpu_switch_context:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size kiln_spirv_cpu_switch_context, .-kiln_spirv_cpu_switch_context

  .p2align 4
  .globl kiln_spirv_cpu_fiber_start
  .hidden kiln_spirv_cpu_fiber_start
  .type kiln_spirv_cpu_fiber_start, @function
kiln_spirv_cpu_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size kiln_spirv_cpu_fiber_start, .-kiln_spirv_cpu_fiber_start
)");
#endif

FiberContext::~FiberContext() {
#ifdef KILN_TSAN
  if (ownsTsanFiber)
    __tsan_destroy_fiber(tsanFiber);
#endif
}

FiberStack::~FiberStack() {
  if (mapping_)
    munmap(mapping_, mappingBytes_);
}

rt::Status FiberStack::allocate(size_t bytes) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  bytes = (bytes + page - 1) / page * page;
  void *mapping =
      mmap(nullptr, bytes + page, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED)
    return KILN_ERROR(OutOfMemory, "cannot map a fiber stack of " +
                                       std::to_string(bytes) +
                                       " bytes: " + std::strerror(errno));
  // The guard page: an invocation that overflows its stack faults at once.
  if (mprotect(mapping, page, PROT_NONE) != 0) {
    int error = errno;
    munmap(mapping, bytes + page);
    return KILN_ERROR(OutOfMemory, std::string("cannot protect the guard page "
                                               "of a fiber stack: ") +
                                       std::strerror(error));
  }
  if (mapping_)
    munmap(mapping_, mappingBytes_); // A smaller stack, replaced.
  mapping_ = mapping;
  mappingBytes_ = bytes + page;
  bottom_ = static_cast<uint8_t *>(mapping) + page;
  size_ = bytes;
  return rt::Status::success();
}

#if !defined(__x86_64__)
namespace {
/// makecontext passes int arguments only: the context's address in two.
void ucontextTrampoline(unsigned high, unsigned low) {
  auto *fiber = reinterpret_cast<FiberContext *>((uintptr_t(high) << 32) |
                                                 uintptr_t(low));
  fiber->entry(fiber->arg);
  __builtin_trap();
}
} // namespace
#endif

void kiln::spirvcpu::prepareFiber(FiberContext &fiber, FiberStack &stack,
                                  void (*entry)(void *), void *arg) {
  fiber.stackBottom = stack.bottom();
  fiber.stackSize = stack.size();
  fiber.fakeStack = nullptr;
#ifdef KILN_ASAN
  // Frames of an abandoned run may have left their redzones poisoned.
  ASAN_UNPOISON_MEMORY_REGION(stack.bottom(), stack.size());
#endif
#ifdef KILN_TSAN
  // ThreadSanitizer keeps each fiber's calls on a shadow stack of its own.
  // A run ends by switching away without returning, which leaves its frames
  // there: each run starts on a new one (without fiber records, the worker
  // thread's shadow stack grew by every invocation's frames until it
  // overflowed).
  if (fiber.ownsTsanFiber)
    __tsan_destroy_fiber(fiber.tsanFiber);
  fiber.tsanFiber = __tsan_create_fiber(0);
  fiber.ownsTsanFiber = true;
#endif
#if defined(__x86_64__)
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack.bottom()) + stack.size()) &
                  ~uintptr_t(15);
  auto *slots = reinterpret_cast<uint64_t *>(top);
  slots[-1] = reinterpret_cast<uint64_t>(&kiln_spirv_cpu_fiber_start);
  slots[-2] = 0;                                           // rbp
  slots[-3] = 0;                                           // rbx
  slots[-4] = reinterpret_cast<uint64_t>(arg);             // r12
  slots[-5] = reinterpret_cast<uint64_t>(entry);           // r13
  slots[-6] = 0;                                           // r14
  slots[-7] = 0;                                           // r15
  slots[-8] = uint64_t(0x1F80) | (uint64_t(0x037F) << 32); // MXCSR, x87 CW
  fiber.sp = &slots[-8];
#else
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stack.bottom();
  fiber.context.uc_stack.ss_size = stack.size();
  fiber.context.uc_link = nullptr;
  fiber.entry = entry;
  fiber.arg = arg;
  uintptr_t address = reinterpret_cast<uintptr_t>(&fiber);
  makecontext(&fiber.context, reinterpret_cast<void (*)()>(ucontextTrampoline),
              2, unsigned(address >> 32), unsigned(address & 0xFFFFFFFFu));
#endif
}

void kiln::spirvcpu::switchFiber(FiberContext &from, FiberContext &to,
                                 bool finished) {
#ifdef KILN_ASAN
  __sanitizer_start_switch_fiber(finished ? nullptr : &from.fakeStack,
                                 to.stackBottom, to.stackSize);
#else
  (void)finished;
#endif
#ifdef KILN_TSAN
  if (!from.tsanFiber)
    from.tsanFiber = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(to.tsanFiber, 0);
#endif
#if defined(__x86_64__)
  kiln_spirv_cpu_switch_context(&from.sp, to.sp);
#else
  swapcontext(&from.context, &to.context);
#endif
#ifdef KILN_ASAN
  __sanitizer_finish_switch_fiber(from.fakeStack, nullptr, nullptr);
#endif
}

void kiln::spirvcpu::enterFiber(FiberContext &from) {
#ifdef KILN_ASAN
  const void *bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
  if (!from.stackBottom) {
    from.stackBottom = bottom;
    from.stackSize = size;
  }
#else
  (void)from;
#endif
}
