//===- Executor.h - Running a launch on the host's cores --------*- C++ -*-===//
//
// The spirv-cpu runtime's execution model (docs/spirv-cpu.md, "Execution
// model"):
//
// - A launch runs every workgroup of the grid and every invocation of each
//   workgroup. Workgroups run in parallel on a pool of worker threads
//   (std::thread::hardware_concurrency(), or KILN_CPU_THREADS, divided
//   among the devices of the program's list), each worker
//   taking the next workgroup (x fastest, then y, then z) until none is
//   left. A worker owns its workgroup memory (16-byte aligned, filled with
//   0xCD bytes per workgroup in checked mode), its invocations' private
//   memory (zeroed per invocation) and fiber stacks, all reused across
//   launches. The host thread that launches only waits (bounded by
//   KILN_TIMEOUT), so launches are synchronous; one runs at a time on a
//   device. Each device of the program's list has its own pool (its share
//   of the workers), so launches on different devices run at once.
// - A kernel whose KernelDesc has neither kUsesBarrier, kUsesSubgroupOps nor
//   kChecked runs the invocations of a workgroup one after another, in
//   local invocation index order (x + y*sx + z*sx*sy): the fast path.
// - Otherwise every invocation is a fiber: its own 256 KiB stack with a
//   guard page. The worker runs each runnable fiber until it returns or
//   waits (barrier, subgroup operation). When none is runnable it resolves:
//   first subgroup operations (per subgroup of kSubgroupSize consecutive
//   local indices, the lanes waiting at the same site are the active set;
//   each gets its result and runs again), then, when only barrier waiters
//   and returned invocations are left, the barrier: every waiter runs
//   again. Returned invocations do not count (an unchecked kernel whose
//   invocations return early never hangs); in checked mode an invocation
//   that returned while others wait at a barrier, or waiters at different
//   barriers, fail the launch.
// - A failing checked access (__kiln_spirv_cpu_check) stops its invocation
//   at once: its fiber is switched away from and never resumed (nothing is
//   unwound), the workgroup is abandoned, the other workers take no new
//   workgroup, and the launch returns the first error once every worker has
//   left it.
// - A launch that outlasts KILN_TIMEOUT returns a Timeout error while its
//   workers may still run it; they take no new workgroup, and the next
//   launch starts on each worker once it is free.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_EXECUTOR_H
#define KILN_RUNTIME_SPIRVCPU_EXECUTOR_H

#include "kiln/Contract/Container.h"
#include "kiln/Contract/SPIRVCPUABI.h"
#include "kiln/Runtime/Status.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln {
namespace spirvcpu {

/// The fiber stack of an invocation, besides the frame the compiler
/// counted (KernelDesc::stackBytes).
constexpr size_t kFiberStackBytes = 256 * 1024;
/// A kernel whose frame is larger runs on fibers, whose stacks are sized
/// for it, instead of on the worker's own stack.
constexpr uint32_t kFastPathStackBytes = 64 * 1024;

/// The fiber stack a kernel with `desc` runs on.
inline size_t fiberStackBytes(const KernelDesc &desc) {
  constexpr size_t kGrain = 64 * 1024;
  return kFiberStackBytes +
         (size_t(desc.stackBytes) + kGrain - 1) / kGrain * kGrain;
}

/// A kernel as mgpuModuleGetFunction returns it.
struct Kernel {
  std::string name;
  const container::KernelInfo *info = nullptr;
  /// The module's index width (32 or 64).
  uint32_t indexBits = 32;
  const KernelDesc *desc = nullptr;
  KernelFn fn = nullptr;
  /// Per KernelDesc resource: the argument bound there (StorageBuffer),
  /// -1 (UniformBuffer: the push-constant block) or kUnusedResource (a
  /// buffer only other kernels of the module use: null).
  std::vector<int> resourceArgs;
  static constexpr int kUnusedResource = -2;
};

/// The bytes a resource may be accessed at, for checked mode.
struct Extent {
  uintptr_t lo = 0, hi = 0;
  uint64_t elementBytes = 1;
  /// The push-constant block in a uniform buffer (counted in bytes).
  bool uniform = false;
};

/// One launch, shared by the launching thread and the workers (which may
/// outlive the launching call after a timeout).
struct Launch {
  const Kernel *kernel = nullptr;
  /// Keeps `kernel` (and its module) alive while any worker may still run
  /// the launch: after a timeout, an unload of its module frees nothing
  /// under them.
  std::shared_ptr<const void> owner;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint64_t workgroups = 0;
  uint32_t invocations = 0;
  bool fibers = false;
  bool checked = false;
  /// Bytes of dynamic workgroup memory after the kernel's static ones.
  uint32_t dynamicWorkgroupBytes = 0;
  std::vector<uint8_t> pushConstants;
  std::vector<void *> resources;
  std::vector<Extent> extents;

  /// The next workgroup to take; set `stop` to take none.
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};

  std::mutex mutex;
  std::condition_variable changed;
  uint64_t finished = 0;
  unsigned inside = 0;
  rt::Status error;

  /// Records `error` (the first one wins) and stops the launch.
  void fail(rt::Status status);
};

/// Reads KILN_CPU_THREADS (`text`, may be null) into `threads`: the
/// hardware concurrency when unset (divided among the ranks an MPI launcher
/// runs on the node, DeviceChoice.h). False with `error` when it is not a
/// number from 1 to 1024.
bool parseThreadCount(const char *text, unsigned &threads, std::string &error);

/// A device's workers. Each spirv-cpu device (one entry of the program's
/// device list) owns one Executor, so launches on two devices run at once;
/// launches on one device run one at a time.
class Executor {
public:
  /// Starts `threads` workers (at least 1).
  explicit Executor(unsigned threads);
  /// Stops the workers: joins them, or, while a timed-out launch still
  /// holds some, lets them finish it and end on their own (they keep what
  /// they use alive).
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  /// The number of workers KILN_CPU_THREADS asks for (or would).
  static rt::Expected<unsigned> configuredThreads(const char *text);

  unsigned threads() const;

  /// Runs `launch` and waits for it, at most `timeoutSeconds` (0: no
  /// limit); `microseconds` receives the time it ran. A Timeout error says
  /// "kernel 'NAME' did not complete ...".
  rt::Status run(const std::shared_ptr<Launch> &launch, double timeoutSeconds,
                 double &microseconds);

  struct Worker;

private:
  /// What the workers share with the Executor; each worker thread holds it
  /// too, so that it outlives the Executor while a worker is still inside
  /// a timed-out launch.
  struct Pool;
  static void workerMain(const std::shared_ptr<Pool> &pool, Worker *worker);

  std::shared_ptr<Pool> pool_;
  /// Serialises this device's launches.
  std::mutex runMutex_;
  /// The last launch that timed out, whose workers may still run it.
  std::shared_ptr<Launch> timedOut_;
};

} // namespace spirvcpu
} // namespace kiln

#endif // KILN_RUNTIME_SPIRVCPU_EXECUTOR_H
