//===- Queue.h - A device's submissions, fences and streams -----*- C++ -*-===//
//
// The Queue unit of the Vulkan runtime: command buffers recorded, submitted
// to the device's one queue with a fence, waited for (with the runtime's
// lock released) and recycled with their descriptor pools and timestamp
// queries; streams are lists of pending submissions. Completing a launch
// copies staged host memory back and reports its time. It reads a Device
// and calls nothing above it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_QUEUE_H
#define KILN_RUNTIME_VULKAN_QUEUE_H

#include "Device.h"
#include "Memory.h"

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::vkrt {

/// One queue submission: a command buffer and what it keeps alive.
struct Submission {
  VkCommandBuffer cmd = VK_NULL_HANDLE; ///< Freed with the command pool.
  Owned<VkFence> fence;
  Owned<VkDescriptorPool> pool;
  uint32_t poolBuffers = 0;
  Owned<VkQueryPool> queries;
  std::vector<HostSegment> segments;
  std::string kernel; ///< Empty for copies.
  bool timed = false;
  std::chrono::steady_clock::time_point submitted;
  std::chrono::steady_clock::time_point submitReturned;
  /// The stream whose pending list holds it until it completes.
  struct Stream *stream = nullptr;
  /// Threads waiting on its fence with the lock released; its fence is not
  /// reset, nor the submission reused, until they are done.
  unsigned waiters = 0;
  /// Completed (copies back done, timing reported), not yet recycled.
  bool done = false;
};

struct Stream {
  std::deque<Submission *> pending;
};

/// All work goes to one queue in submission order, so an event carries no
/// state: it completes when everything submitted before it has.
struct Event {};

class Queue {
public:
  /// `guard` is the mutex of the runtime that owns the queue (null: none),
  /// which a wait releases when the calling thread holds it.
  explicit Queue(Device &device, std::mutex *guard = nullptr)
      : dev(device), guard(guard) {}
  Queue(const Queue &) = delete;
  Queue &operator=(const Queue &) = delete;

  /// A lock on a runtime's mutex that the calling thread holds, taken by an
  /// entry point (Runtime.cpp), and the one it held before: a thread inside
  /// one device's call may call into another device.
  struct HeldLock {
    std::unique_lock<std::mutex> *lock = nullptr;
    const HeldLock *outer = nullptr;
  };
  /// The calling thread's locks, innermost first.
  static thread_local const HeldLock *heldLocks;
  /// The calling thread's lock on `mutex` when it holds one (null
  /// otherwise): a wait for one device releases that device's lock only.
  static std::unique_lock<std::mutex> *heldLockOn(const std::mutex *mutex);

  bool timing = false;    ///< Launches write timestamps.
  bool envTiming = false; ///< KILN_VULKAN_TIMING: print them.
  /// KILN_VULKAN_TIMING=upstream: print them as upstream's Vulkan runtime
  /// did (three lines on stdout), for programs whose CHECK lines expect them.
  bool upstreamTiming = false;
  KilnTimingCallback timingCallback = nullptr;
  void *timingUser = nullptr;
  /// KILN_TIMEOUT: the longest wait for the device, in seconds (0: none).
  double timeoutSeconds = 0;

  /// Launches write timestamps when someone reads them (KILN_VULKAN_TIMING
  /// or a callback) and the queue has them.
  void chooseTiming(bool queueHasTimestamps) {
    timing = (envTiming || timingCallback) && queueHasTimestamps;
  }

  /// The command pool, made when the device opens and released before it
  /// closes (after releaseAll).
  Status open();
  void close() { commandPool.reset(); }
  /// Releases every submission (the device is idle and closing).
  void releaseAll();

  /// A submission ready to record (from the free list or new). Until it is
  /// submitted, giveBack() returns it.
  Expected<Submission *> acquire(uint32_t buffers);
  void giveBack(Submission *s);
  Status submit(Submission *s, Stream *stream);
  /// Timestamp queries around a command: a pool of two on `s`, the start
  /// (0, resetting the pool) or end (1) stamp, and the microseconds between
  /// them once `s` completed (-1 when unavailable).
  Status createQueries(Submission *s);
  void writeTimestamp(Submission *s, uint32_t which);
  double gpuMicroseconds(Submission *s);
  /// Waits for `targets` (a copy: other threads may change the lists it
  /// came from while the lock is released) and completes them.
  Status waitAndComplete(std::vector<Submission *> targets);
  Status begin(VkCommandBuffer cmd);
  void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages,
                     VkAccessFlags srcAccess, VkPipelineStageFlags dstStages,
                     VkAccessFlags dstAccess);
  /// Records `body` into a fresh submission, submits it and waits. With
  /// `timed` (and timestamps on the queue), returns the GPU microseconds
  /// between timestamps around `body`; otherwise -1.
  template <typename F> Expected<double> runNow(F body, bool timed = false);

  /// Waits for every submission of `stream` (null: the default stream).
  Status synchronize(Stream *stream);
  /// Waits for every pending submission of every stream.
  Status drainAll();
  Stream *defaultStream() { return &defaultStream_; }
  /// An error naming `what` unless `stream` is null, the default stream or
  /// one that createStream returned and destroyStream did not destroy.
  Status checkStream(const Stream *stream, const char *what) const;
  Stream *createStream();
  /// Waits for `stream`'s work, then destroys it.
  Status destroyStream(Stream *stream);

  /// Events: all work goes to one queue in submission order, so an event
  /// holds no state, but its handle is still checked.
  Event *createEvent();
  /// An error naming `what` unless `event` is one that createEvent returned
  /// and destroyEvent did not destroy.
  Status checkEvent(const Event *event, const char *what) const;
  Status destroyEvent(Event *event);

private:
  /// Removes `s` from its stream, copies staged host memory back and
  /// reports its time; recycles it unless others still wait on it.
  Status complete(Submission *s);
  /// Puts a completed submission back in the free list, its fence reset.
  Status recycle(Submission *s);

  Device &dev;
  std::mutex *guard;
  Owned<VkCommandPool> commandPool;
  std::vector<std::unique_ptr<Submission>> submissions;
  std::vector<Submission *> freeSubmissions;
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<std::unique_ptr<Event>> events;
  Stream defaultStream_;
};

template <typename F> Expected<double> Queue::runNow(F body, bool timed) {
  timed = timed && dev.timestamps;
  KILN_ASSIGN_OR_RETURN(Submission * s, acquire(0));
  ScopeExit unused([&] { giveBack(s); });
  if (timed)
    KILN_TRY(createQueries(s));
  KILN_TRY(begin(s->cmd));
  memoryBarrier(s->cmd,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  if (timed)
    writeTimestamp(s, 0);
  body(s->cmd);
  if (timed)
    writeTimestamp(s, 1);
  memoryBarrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
  KILN_VK(dev.vk.vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
  std::vector<Submission *> one{s};
  KILN_TRY(submit(s, nullptr));
  unused.dismiss();
  KILN_TRY(waitAndComplete(one));
  // The submission is back in the free list but not reused before this
  // (the runtime's lock is held), so its queries are still readable.
  return timed ? gpuMicroseconds(s) : -1.0;
}

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_QUEUE_H
