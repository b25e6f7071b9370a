//===- Executor.cpp - Running a launch on the host's cores ----------------===//
//
// The worker pool, the per-workgroup scheduler of fibers and the functions
// compiled kernels call (__kiln_spirv_cpu_barrier, _subgroup, _check). The
// execution model is described in Executor.h.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "../DeviceChoice.h"
#include "../Format.h"
#include "../Timeout.h"
#include "Fiber.h"
#include "Subgroup.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Expected;
using rt::Status;

void Launch::fail(Status status) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!error)
    error = std::move(status);
  stop = true;
  changed.notify_all();
}

bool kiln::spirvcpu::parseThreadCount(const char *text, unsigned &threads,
                                      std::string &error) {
  if (!text || !*text) {
    // The host's cores, shared among the ranks an MPI launcher runs on this
    // node (DeviceChoice.h), so that N ranks do not start N times as many
    // workers as there are cores. KILN_CPU_THREADS is taken as it is.
    threads = rt::shareAmongLocalRanks(
        std::max(1u, std::thread::hardware_concurrency()));
    return true;
  }
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 1 || value > 1024) {
    error = std::string("KILN_CPU_THREADS='") + text +
            "' is not a number of worker threads from 1 to 1024";
    return false;
  }
  threads = unsigned(value);
  return true;
}

namespace {
/// A heap block aligned to 64 bytes that only grows.
class AlignedBuffer {
public:
  uint8_t *reserve(size_t bytes) {
    if (bytes > capacity_) {
      size_t rounded = (bytes + 63) / 64 * 64;
      data_.reset(static_cast<uint8_t *>(std::aligned_alloc(64, rounded)));
      capacity_ = data_ ? rounded : 0;
    }
    return data_.get();
  }

private:
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t capacity_ = 0;
};

enum class LaneState { Ready, AtBarrier, AtSubgroup, Returned, Failed };

/// One invocation of the workgroup a worker runs.
struct Lane {
  Invocation invocation;
  Executor::Worker *worker = nullptr;
  LaneState state = LaneState::Ready;
  uint32_t site = 0;
  SubgroupLane request;
  FiberContext context;
  FiberStack stack;
};

std::string triple(const uint32_t *v) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
         std::to_string(v[2]) + ")";
}

std::string siteName(const KernelDesc &desc, uint32_t site) {
  if (site < desc.numSites && desc.sites && desc.sites[site])
    return desc.sites[site];
  return "site " + std::to_string(site);
}
} // namespace

struct Executor::Worker {
  std::thread thread;
  /// The worker's own stack, while a fiber runs.
  FiberContext self;
  std::vector<std::unique_ptr<Lane>> lanes;
  AlignedBuffer workgroupMemory, privateMemory;
  /// Invocation::bounds of the workgroup being run, and the area its
  /// out-of-bounds writes go to.
  std::vector<uintptr_t> bounds;
  alignas(64) uint8_t sink[kBoundsScratchBytes];
  /// What the workgroup being run is.
  Launch *launch = nullptr;
  uint32_t workgroupId[3] = {0, 0, 0};
  /// Set by a kernel call that fails; the workgroup stops.
  Status failure;

  Status runWorkgroup(Launch &launch, uint64_t index);
  void fillBounds(const Launch &launch, const uint8_t *shared);
  Status schedule(Launch &launch, uint32_t count);
  Status resolveSubgroups(Launch &launch, uint32_t count);
  Status resolveBarrier(Launch &launch, uint32_t count);
  /// "kernel 'k': workgroup (x, y, z): ".
  std::string where() const {
    return "kernel '" + launch->kernel->name + "': workgroup " +
           triple(workgroupId) + ": ";
  }
};

namespace {
void fiberMain(void *arg) {
  auto *lane = static_cast<Lane *>(arg);
  enterFiber(lane->worker->self);
  lane->worker->launch->kernel->fn(&lane->invocation);
  lane->state = LaneState::Returned;
  switchFiber(lane->context, lane->worker->self, /*finished=*/true);
  __builtin_trap(); // Never resumed.
}

/// Stops the calling invocation with `error`: in a fiber, for good; on the
/// fast path (a kernel whose KernelDesc did not ask for fibers) it cannot be
/// stopped, so the process ends.
void stopInvocation(Lane &lane, Status error) {
  Executor::Worker &worker = *lane.worker;
  if (!worker.failure)
    worker.failure = std::move(error);
  if (!worker.launch->fibers) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "kiln-spirv-cpu: %s (the kernel runs without fibers, so its "
                 "invocation cannot be stopped)\n",
                 worker.failure.message().c_str());
    std::fflush(stderr);
    std::_Exit(1);
  }
  lane.state = LaneState::Failed;
  switchFiber(lane.context, worker.self, /*finished=*/true);
  __builtin_trap();
}
} // namespace

/// What bounded accesses read instead of bytes out of bounds.
alignas(64) static const uint8_t boundsZeros[kBoundsScratchBytes] = {};

void Executor::Worker::fillBounds(const Launch &l, const uint8_t *shared) {
  const KernelDesc &desc = *l.kernel->desc;
  bounds.assign(boundsOfWorkgroupVar(desc.numResources, desc.numWorkgroupVars),
                0);
  bounds[kBoundsZeros] = reinterpret_cast<uintptr_t>(boundsZeros);
  bounds[kBoundsSink] = reinterpret_cast<uintptr_t>(sink);
  for (uint32_t r = 0; r < desc.numResources && r < l.extents.size(); ++r) {
    bounds[boundsOfResource(r)] = l.extents[r].lo;
    bounds[boundsOfResource(r) + 1] = l.extents[r].hi;
  }
  for (uint32_t v = 0; v < desc.numWorkgroupVars; ++v) {
    const WorkgroupVarDesc &var = desc.workgroupVars[v];
    // The dynamic array (the last variable, 0 bytes in the descriptor) is
    // as long as this launch made it.
    bool dynamic =
        (desc.flags & kDynamicWorkgroup) && v + 1 == desc.numWorkgroupVars;
    uintptr_t lo = reinterpret_cast<uintptr_t>(shared) + var.offset;
    bounds[boundsOfWorkgroupVar(desc.numResources, v)] = lo;
    bounds[boundsOfWorkgroupVar(desc.numResources, v) + 1] =
        lo + (dynamic ? l.dynamicWorkgroupBytes : var.bytes);
  }
}

Status Executor::Worker::runWorkgroup(Launch &l, uint64_t index) {
  launch = &l;
  failure = Status();
  const Kernel &kernel = *l.kernel;
  const KernelDesc &desc = *kernel.desc;
  workgroupId[0] = uint32_t(index % l.grid[0]);
  workgroupId[1] = uint32_t(index / l.grid[0] % l.grid[1]);
  workgroupId[2] = uint32_t(index / (uint64_t(l.grid[0]) * l.grid[1]));
  size_t sharedBytes =
      size_t(desc.workgroupMemoryBytes) + l.dynamicWorkgroupBytes;
  uint8_t *shared = workgroupMemory.reserve(std::max<size_t>(sharedBytes, 16));
  size_t privateStride = (size_t(desc.privateMemoryBytes) + 15) / 16 * 16;
  uint32_t count = l.fibers ? l.invocations : 1;
  uint8_t *privates =
      privateMemory.reserve(std::max<size_t>(privateStride * count, 16));
  if (!shared || !privates)
    return KILN_ERROR(OutOfMemory, where() + "cannot allocate " +
                                       std::to_string(sharedBytes) +
                                       " bytes of workgroup memory and " +
                                       std::to_string(privateStride * count) +
                                       " bytes of private memory");
  if (l.checked)
    std::memset(shared, 0xCD, sharedBytes);
  if (desc.flags & kBounded)
    fillBounds(l, shared);

  while (lanes.size() < count) {
    auto lane = std::make_unique<Lane>();
    lane->worker = this;
    lanes.push_back(std::move(lane));
  }
  // Fiber stacks grow to what the kernel's frame needs, and stay.
  size_t stackBytes = fiberStackBytes(desc);
  for (uint32_t i = l.fibers ? 0 : count; i < count; ++i)
    if (lanes[i]->stack.size() < stackBytes)
      KILN_TRY(lanes[i]->stack.allocate(stackBytes).prepend(where()));

  auto fill = [&](Lane &lane, uint32_t local, uint8_t *privateBytes) {
    Invocation &inv = lane.invocation;
    uint32_t sx = l.block[0], sy = l.block[1];
    uint32_t id[3] = {local % sx, local / sx % sy, local / (sx * sy)};
    for (int d = 0; d < 3; ++d) {
      inv.localInvocationId[d] = id[d];
      inv.workgroupId[d] = workgroupId[d];
      inv.numWorkgroups[d] = l.grid[d];
      inv.workgroupSize[d] = l.block[d];
      inv.globalInvocationId[d] = workgroupId[d] * l.block[d] + id[d];
    }
    inv.globalInvocationId[3] = inv.localInvocationId[3] = 0;
    inv.workgroupId[3] = inv.numWorkgroups[3] = inv.workgroupSize[3] = 0;
    inv.localInvocationIndex = local;
    inv.subgroupSize = kSubgroupSize;
    inv.subgroupId = local / kSubgroupSize;
    inv.subgroupLocalInvocationId = local % kSubgroupSize;
    inv.numSubgroups = (l.invocations + kSubgroupSize - 1) / kSubgroupSize;
    inv.dynamicWorkgroupBytes = l.dynamicWorkgroupBytes;
    inv.reserved[0] = inv.reserved[1] = 0;
    inv.resources = l.resources.data();
    inv.pushConstants =
        l.pushConstants.empty() ? nullptr : l.pushConstants.data();
    inv.workgroupMemory = sharedBytes ? shared : nullptr;
    inv.privateMemory = desc.privateMemoryBytes ? privateBytes : nullptr;
    inv.scheduler = &lane;
    inv.bounds = (desc.flags & kBounded) ? bounds.data() : nullptr;
    if (privateStride)
      std::memset(privateBytes, 0, privateStride);
    lane.state = LaneState::Ready;
  };

  if (!l.fibers) {
    // The fast path: one invocation after the other.
    Lane &lane = *lanes[0];
    for (uint32_t local = 0; local < l.invocations; ++local) {
      fill(lane, local, privates);
      kernel.fn(&lane.invocation);
      if (failure)
        return std::move(failure);
    }
    return Status::success();
  }

  for (uint32_t local = 0; local < count; ++local) {
    Lane &lane = *lanes[local];
    fill(lane, local, privates + privateStride * local);
    prepareFiber(lane.context, lane.stack, &fiberMain, &lane);
  }
  return schedule(l, count);
}

Status Executor::Worker::schedule(Launch &l, uint32_t count) {
  for (;;) {
    bool ran = false;
    for (uint32_t i = 0; i < count; ++i) {
      Lane &lane = *lanes[i];
      if (lane.state != LaneState::Ready)
        continue;
      ran = true;
      switchFiber(self, lane.context);
      if (failure)
        return std::move(failure); // The workgroup is abandoned.
    }
    if (ran)
      continue;
    bool subgroups = false, barriers = false;
    for (uint32_t i = 0; i < count; ++i) {
      subgroups |= lanes[i]->state == LaneState::AtSubgroup;
      barriers |= lanes[i]->state == LaneState::AtBarrier;
    }
    if (subgroups)
      KILN_TRY(resolveSubgroups(l, count));
    else if (barriers)
      KILN_TRY(resolveBarrier(l, count));
    else
      return Status::success(); // Every invocation returned.
  }
}

Status Executor::Worker::resolveSubgroups(Launch &l, uint32_t count) {
  const KernelDesc &desc = *l.kernel->desc;
  for (uint32_t base = 0; base < count; base += kSubgroupSize) {
    uint32_t end = std::min(count, base + kSubgroupSize);
    bool pending = true;
    while (pending) {
      // The lanes at the first waiting lane's site are one active set.
      pending = false;
      int siteLane = -1;
      for (uint32_t i = base; i < end && siteLane < 0; ++i)
        if (lanes[i]->state == LaneState::AtSubgroup)
          siteLane = int(i);
      if (siteLane < 0)
        break;
      uint32_t site = lanes[siteLane]->site;
      SubgroupLane set[kSubgroupSize];
      for (uint32_t i = base; i < end; ++i) {
        Lane &lane = *lanes[i];
        if (lane.state != LaneState::AtSubgroup || lane.site != site)
          continue;
        set[i - base] = lane.request;
        set[i - base].active = true;
        lane.state = LaneState::Ready;
      }
      if (Status error = resolveSubgroup(set))
        return error.prepend("kernel '" + l.kernel->name + "' at " +
                             siteName(desc, site) + ": workgroup " +
                             triple(workgroupId) + " subgroup " +
                             std::to_string(base / kSubgroupSize) + ": ");
      pending = true;
    }
  }
  return Status::success();
}

Status Executor::Worker::resolveBarrier(Launch &l, uint32_t count) {
  const KernelDesc &desc = *l.kernel->desc;
  Lane *waiter = nullptr, *returned = nullptr, *elsewhere = nullptr;
  for (uint32_t i = 0; i < count; ++i) {
    Lane &lane = *lanes[i];
    if (lane.state == LaneState::AtBarrier) {
      if (!waiter)
        waiter = &lane;
      else if (lane.site != waiter->site && !elsewhere)
        elsewhere = &lane;
    } else if (lane.state == LaneState::Returned && !returned) {
      returned = &lane;
    }
  }
  if (l.checked && returned)
    return KILN_ERROR(InvalidArgument,
                      where() + "invocation " +
                          triple(returned->invocation.localInvocationId) +
                          " returned without reaching the barrier at " +
                          siteName(desc, waiter->site) + " that invocation " +
                          triple(waiter->invocation.localInvocationId) +
                          " waits at");
  if (l.checked && elsewhere)
    return KILN_ERROR(
        InvalidArgument,
        where() + "invocation " + triple(waiter->invocation.localInvocationId) +
            " waits at the barrier at " + siteName(desc, waiter->site) +
            " while invocation " +
            triple(elsewhere->invocation.localInvocationId) +
            " waits at the barrier at " + siteName(desc, elsewhere->site) +
            "; every invocation of a workgroup must reach the same barrier");
  for (uint32_t i = 0; i < count; ++i)
    if (lanes[i]->state == LaneState::AtBarrier)
      lanes[i]->state = LaneState::Ready;
  return Status::success();
}

//===----------------------------------------------------------------------===//
// The pool
//===----------------------------------------------------------------------===//

Expected<unsigned> Executor::configuredThreads(const char *text) {
  unsigned threads = 0;
  std::string error;
  if (!parseThreadCount(text, threads, error))
    return KILN_ERROR(InvalidArgument, error);
  return threads;
}

struct Executor::Pool {
  std::vector<std::unique_ptr<Worker>> workers;
  std::mutex mutex;
  std::condition_variable posted;
  uint64_t generation = 0;
  std::shared_ptr<Launch> current;
  /// Set by ~Executor: the workers end.
  bool closing = false;
};

Executor::Executor(unsigned threads) : pool_(std::make_shared<Pool>()) {
  for (unsigned i = 0; i < std::max(threads, 1u); ++i)
    pool_->workers.push_back(std::make_unique<Worker>());
  for (auto &worker : pool_->workers)
    worker->thread =
        std::thread([pool = pool_, w = worker.get()] { workerMain(pool, w); });
}

Executor::~Executor() {
  {
    std::lock_guard<std::mutex> lock(pool_->mutex);
    pool_->closing = true;
    pool_->current.reset();
    ++pool_->generation;
  }
  pool_->posted.notify_all();
  // A worker still inside a timed-out launch may never leave it: joining
  // it could wait forever, so then every worker ends on its own.
  bool stuck = false;
  if (timedOut_) {
    std::lock_guard<std::mutex> lock(timedOut_->mutex);
    stuck = timedOut_->inside != 0;
  }
  for (auto &worker : pool_->workers) {
    if (stuck)
      worker->thread.detach();
    else
      worker->thread.join();
  }
}

unsigned Executor::threads() const { return unsigned(pool_->workers.size()); }

void Executor::workerMain(const std::shared_ptr<Pool> &pool, Worker *worker) {
  uint64_t seen = 0;
  for (;;) {
    std::shared_ptr<Launch> launch;
    {
      std::unique_lock<std::mutex> lock(pool->mutex);
      pool->posted.wait(lock, [&] { return pool->generation != seen; });
      if (pool->closing)
        return;
      seen = pool->generation;
      launch = pool->current;
    }
    if (!launch)
      continue; // It completed before this worker woke up.
    {
      std::lock_guard<std::mutex> lock(launch->mutex);
      if (launch->stop)
        continue;
      ++launch->inside;
    }
    while (!launch->stop) {
      uint64_t index = launch->next.fetch_add(1);
      if (index >= launch->workgroups)
        break;
      if (Status error = worker->runWorkgroup(*launch, index)) {
        launch->fail(std::move(error));
        break;
      }
      std::lock_guard<std::mutex> lock(launch->mutex);
      if (++launch->finished == launch->workgroups)
        launch->changed.notify_all();
    }
    worker->launch = nullptr;
    std::lock_guard<std::mutex> lock(launch->mutex);
    if (--launch->inside == 0)
      launch->changed.notify_all();
  }
}

Status Executor::run(const std::shared_ptr<Launch> &launch,
                     double timeoutSeconds, double &microseconds) {
  std::lock_guard<std::mutex> serial(runMutex_);
  auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(pool_->mutex);
    pool_->current = launch;
    ++pool_->generation;
  }
  pool_->posted.notify_all();
  std::unique_lock<std::mutex> lock(launch->mutex);
  auto over = [&] {
    return (launch->finished == launch->workgroups || launch->stop) &&
           launch->inside == 0;
  };
  if (timeoutSeconds > 0) {
    auto deadline =
        start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(timeoutSeconds));
    if (!launch->changed.wait_until(lock, deadline, over)) {
      launch->stop = true;
      timedOut_ = launch;
      return rt::makeError(
          rt::ErrorKind::Timeout,
          rt::timeoutMessage("kernel '" + launch->kernel->name + "'",
                             timeoutSeconds, "'spirv-cpu'"),
          __FILE__, __LINE__);
    }
  } else {
    launch->changed.wait(lock, over);
  }
  microseconds = std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  {
    // Drop the workers' reference target so the launch's memory goes.
    std::lock_guard<std::mutex> postLock(pool_->mutex);
    if (pool_->current == launch)
      pool_->current.reset();
  }
  return launch->error;
}

//===----------------------------------------------------------------------===//
// What compiled kernels call
//===----------------------------------------------------------------------===//

extern "C" {

__attribute__((visibility("default"))) void
__kiln_spirv_cpu_barrier(Invocation *invocation, uint32_t site) {
  Lane &lane = *static_cast<Lane *>(invocation->scheduler);
  Executor::Worker &worker = *lane.worker;
  if (!worker.launch->fibers)
    return stopInvocation(
        lane, KILN_ERROR(InvalidArgument,
                         worker.where() +
                             "the kernel calls a barrier, but its KernelDesc "
                             "has no kUsesBarrier; the compiler is wrong"));
  lane.state = LaneState::AtBarrier;
  lane.site = site;
  switchFiber(lane.context, worker.self);
}

__attribute__((visibility("default"))) void
__kiln_spirv_cpu_subgroup(Invocation *invocation, uint32_t site, uint32_t op,
                          uint32_t type, uint32_t components, const void *value,
                          void *result, uint32_t arg) {
  Lane &lane = *static_cast<Lane *>(invocation->scheduler);
  Executor::Worker &worker = *lane.worker;
  if (!worker.launch->fibers)
    return stopInvocation(
        lane,
        KILN_ERROR(InvalidArgument,
                   worker.where() +
                       "the kernel calls a subgroup operation, but its "
                       "KernelDesc has no kUsesSubgroupOps; the compiler is "
                       "wrong"));
  lane.request.op = op;
  lane.request.type = type;
  lane.request.components = components;
  lane.request.value = value;
  lane.request.result = result;
  lane.request.arg = arg;
  lane.state = LaneState::AtSubgroup;
  lane.site = site;
  switchFiber(lane.context, worker.self);
}

__attribute__((visibility("default"))) void
__kiln_spirv_cpu_check(Invocation *invocation, uint32_t site, uint32_t access,
                       uint32_t space, uint32_t index, const void *pointer,
                       uint64_t bytes) {
  Lane &lane = *static_cast<Lane *>(invocation->scheduler);
  Launch &l = *lane.worker->launch;
  const KernelDesc &desc = *l.kernel->desc;
  auto p = reinterpret_cast<uintptr_t>(pointer);
  std::string what, unit = "element", holder = "the binding";
  uintptr_t lo = 0, hi = 0;
  uint64_t elementBytes = 1;
  if (space == uint32_t(AccessSpace::Resource) && index < l.extents.size()) {
    const Extent &e = l.extents[index];
    if (p >= e.lo && p + bytes >= p && p + bytes <= e.hi)
      return;
    lo = e.lo;
    hi = e.hi;
    elementBytes = e.uniform ? 1 : e.elementBytes;
    if (e.uniform)
      unit = "byte";
    const char *d = desc.resources[index].description;
    what = d ? d : "resource " + std::to_string(index);
  } else if (space == uint32_t(AccessSpace::Workgroup) &&
             index < desc.numWorkgroupVars) {
    const WorkgroupVarDesc &var = desc.workgroupVars[index];
    lo = reinterpret_cast<uintptr_t>(invocation->workgroupMemory) + var.offset;
    bool dynamic =
        (desc.flags & kDynamicWorkgroup) && index + 1 == desc.numWorkgroupVars;
    hi = lo + (dynamic ? l.dynamicWorkgroupBytes : var.bytes);
    if (p >= lo && p + bytes >= p && p + bytes <= hi)
      return;
    unit = "byte";
    holder = "the variable";
    what = var.description ? var.description
                           : "workgroup variable " + std::to_string(index);
  } else {
    return stopInvocation(
        lane,
        KILN_ERROR(InvalidArgument,
                   "kernel '" + l.kernel->name + "' at " +
                       siteName(desc, site) + ": a checked access names " +
                       (space == uint32_t(AccessSpace::Workgroup)
                            ? "workgroup variable "
                            : "resource ") +
                       std::to_string(index) +
                       ", which the kernel does not have"));
  }
  const char *verb = access == uint32_t(AccessKind::Write) ? "writes"
                     : access == uint32_t(AccessKind::Atomic)
                         ? "atomically updates"
                         : "reads";
  int64_t element = (int64_t(p) - int64_t(lo)) / int64_t(elementBytes);
  if (p < lo && (lo - p) % elementBytes)
    --element; // Round toward minus infinity.
  uint64_t held = (hi - lo) / elementBytes;
  std::string message;
  rt::appendf(message,
              "kernel '%s' at %s: workgroup %s invocation %s %s %llu bytes "
              "out of bounds of %s: %s %lld, %s holds %llu %s%s",
              l.kernel->name.c_str(), siteName(desc, site).c_str(),
              triple(invocation->workgroupId).c_str(),
              triple(invocation->localInvocationId).c_str(), verb,
              (unsigned long long)bytes, what.c_str(), unit.c_str(),
              (long long)element, holder.c_str(), (unsigned long long)held,
              unit.c_str(), held == 1 ? "" : "s");
  stopInvocation(lane, KILN_ERROR(InvalidArgument, message));
}

} // extern "C"
