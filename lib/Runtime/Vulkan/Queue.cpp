//===- Queue.cpp - Submissions, fences, timestamps and streams ------------===//
//
// Every command buffer goes to the device's one queue with a fence, and is
// recycled (with its descriptor pool and timestamp queries) once complete.
// Waits release the runtime's lock, so other threads go on; a submission
// stays unrecycled while anyone waits on it.
//
//===----------------------------------------------------------------------===//

#include "Queue.h"
#include "../Format.h"
#include "../Timeout.h"

#include <algorithm>
#include <cstdio>

using namespace kiln;
using namespace kiln::vkrt;
using rt::quotedList;

Status Queue::open() {
  VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  info.queueFamilyIndex = dev.queueFamily;
  commandPool = {dev.device, dev.vk.vkDestroyCommandPool};
  KILN_VK_ON(
      dev,
      dev.vk.vkCreateCommandPool(dev.device, &info, nullptr, commandPool.out()),
      "vkCreateCommandPool");
  ++dev.stats.commandPools;
  return Status::success();
}

void Queue::releaseAll() {
  freeSubmissions.clear();
  submissions.clear();
}

Status Queue::begin(VkCommandBuffer cmd) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  KILN_VK_ON(dev, dev.vk.vkBeginCommandBuffer(cmd, &begin),
             "vkBeginCommandBuffer");
  return Status::success();
}

void Queue::memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages,
                          VkAccessFlags srcAccess,
                          VkPipelineStageFlags dstStages,
                          VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  dev.vk.vkCmdPipelineBarrier(cmd, srcStages, dstStages, 0, 1, &barrier, 0,
                              nullptr, 0, nullptr);
}

Expected<Submission *> Queue::acquire(uint32_t buffers) {
  Submission *s;
  if (!freeSubmissions.empty()) {
    s = freeSubmissions.back();
    freeSubmissions.pop_back();
  } else {
    // Kept only once complete; a command buffer allocated here before a
    // failure goes back with the command pool.
    auto fresh = std::make_unique<Submission>();
    VkCommandBufferAllocateInfo info{
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = commandPool.get();
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    KILN_VK_ON(dev,
               dev.vk.vkAllocateCommandBuffers(dev.device, &info, &fresh->cmd),
               "vkAllocateCommandBuffers");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fresh->fence = {dev.device, dev.vk.vkDestroyFence};
    KILN_VK_ON(dev,
               dev.vk.vkCreateFence(dev.device, &fenceInfo, nullptr,
                                    fresh->fence.out()),
               "vkCreateFence");
    submissions.push_back(std::move(fresh));
    s = submissions.back().get();
  }
  // From here a failure puts it back in the free list.
  ScopeExit unused([&] { giveBack(s); });
  KILN_VK_ON(dev, dev.vk.vkResetCommandBuffer(s->cmd, 0),
             "vkResetCommandBuffer");
  if (buffers > 0 && s->poolBuffers < buffers) {
    s->pool.reset();
    s->poolBuffers = 0;
    uint32_t poolBuffers = std::max<uint32_t>(buffers, 16);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, poolBuffers};
    VkDescriptorPoolCreateInfo info{
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = 8;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    s->pool = {dev.device, dev.vk.vkDestroyDescriptorPool};
    KILN_VK_ON(dev,
               dev.vk.vkCreateDescriptorPool(dev.device, &info, nullptr,
                                             s->pool.out()),
               "vkCreateDescriptorPool");
    s->poolBuffers = poolBuffers;
    ++dev.stats.descriptorPools;
  } else if (buffers > 0) {
    KILN_VK_ON(dev, dev.vk.vkResetDescriptorPool(dev.device, s->pool.get(), 0),
               "vkResetDescriptorPool");
  }
  if (timing)
    KILN_TRY(createQueries(s));
  s->kernel.clear();
  s->timed = false;
  unused.dismiss();
  return s;
}

void Queue::giveBack(Submission *s) {
  // Never submitted: host memory is released without copying back.
  for (HostSegment &segment : s->segments)
    Memory::releaseSegment(segment, false);
  s->segments.clear();
  s->kernel.clear();
  s->timed = false;
  freeSubmissions.push_back(s);
}

Status Queue::createQueries(Submission *s) {
  if (s->queries)
    return Status::success();
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  s->queries = {dev.device, dev.vk.vkDestroyQueryPool};
  KILN_VK_ON(
      dev,
      dev.vk.vkCreateQueryPool(dev.device, &info, nullptr, s->queries.out()),
      "vkCreateQueryPool");
  return Status::success();
}

void Queue::writeTimestamp(Submission *s, uint32_t which) {
  if (which == 0) {
    dev.vk.vkCmdResetQueryPool(s->cmd, s->queries.get(), 0, 2);
    dev.vk.vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                               s->queries.get(), 0);
  } else {
    dev.vk.vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                               s->queries.get(), 1);
  }
}

double Queue::gpuMicroseconds(Submission *s) {
  uint64_t stamps[2] = {0, 0};
  if (dev.vk.vkGetQueryPoolResults(dev.device, s->queries.get(), 0, 2,
                                   sizeof(stamps), stamps, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
    return -1;
  return double(stamps[1] - stamps[0]) * dev.properties.limits.timestampPeriod /
         1000.0;
}

Status Queue::submit(Submission *s, Stream *stream) {
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &s->cmd;
  s->submitted = std::chrono::steady_clock::now();
  KILN_VK_ON(dev,
             dev.vk.vkQueueSubmit(dev.computeQueue, 1, &info, s->fence.get()),
             "vkQueueSubmit");
  s->submitReturned = std::chrono::steady_clock::now();
  s->stream = stream;
  if (stream)
    stream->pending.push_back(s);
  return Status::success();
}

Status Queue::complete(Submission *s) {
  s->done = true;
  if (s->stream) {
    // Submissions complete in the order they were submitted, mostly: the
    // front is the common case (a search of thousands of back-to-back
    // launches each was quadratic).
    auto &pending = s->stream->pending;
    if (!pending.empty() && pending.front() == s)
      pending.pop_front();
    else
      pending.erase(std::remove(pending.begin(), pending.end(), s),
                    pending.end());
    s->stream = nullptr;
  }
  auto done = std::chrono::steady_clock::now();
  for (HostSegment &segment : s->segments)
    Memory::releaseSegment(segment, true);
  s->segments.clear();
  if (s->timed) {
    double hostUs =
        std::chrono::duration<double, std::micro>(done - s->submitted).count();
    double gpuUs = s->queries ? gpuMicroseconds(s) : -1;
    if (upstreamTiming) {
      // Upstream's wording, on stdout, where its tests' CHECK lines look.
      auto us = [](auto d) {
        return std::chrono::duration<double, std::micro>(d).count();
      };
      std::fflush(stderr);
      std::printf("Compute shader execution time: %.3fus\n"
                  "Command buffer submit time: %.0fus\n"
                  "Wait idle time: %.0fus\n",
                  gpuUs, us(s->submitReturned - s->submitted),
                  us(done - s->submitReturned));
      std::fflush(stdout);
    } else if (envTiming) {
      std::fprintf(stderr,
                   "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f "
                   "device=%d\n",
                   s->kernel.c_str(), gpuUs, hostUs, dev.place.index);
    }
    if (timingCallback)
      timingCallback(timingUser, s->kernel.c_str(), gpuUs);
  }
  if (s->waiters == 0)
    return recycle(s);
  return Status::success();
}

Status Queue::recycle(Submission *s) {
  VkFence fence = s->fence.get();
  KILN_VK_ON(dev, dev.vk.vkResetFences(dev.device, 1, &fence), "vkResetFences");
  s->done = false;
  freeSubmissions.push_back(s);
  return Status::success();
}

thread_local const Queue::HeldLock *Queue::heldLocks = nullptr;

std::unique_lock<std::mutex> *Queue::heldLockOn(const std::mutex *mutex) {
  if (!mutex)
    return nullptr;
  for (const HeldLock *held = heldLocks; held; held = held->outer)
    if (held->lock && held->lock->mutex() == mutex && held->lock->owns_lock())
      return held->lock;
  return nullptr;
}

Status Queue::waitAndComplete(std::vector<Submission *> targets) {
  if (targets.empty())
    return Status::success();
  if (dev.broken)
    return dev.broken;
  std::vector<VkFence> fences;
  for (Submission *s : targets) {
    ++s->waiters;
    fences.push_back(s->fence.get());
  }
  uint64_t timeout =
      timeoutSeconds > 0 ? uint64_t(timeoutSeconds * 1e9) : UINT64_MAX;
  // Other threads go on meanwhile: they may submit, allocate, or complete
  // these same submissions (which stay unrecycled while waited on). Only
  // this device's lock is released; one this thread holds on another
  // device (an outer call) stays held.
  std::unique_lock<std::mutex> *lock = heldLockOn(guard);
  if (lock)
    lock->unlock();
  VkResult waited = dev.vk.vkWaitForFences(dev.device, fences.size(),
                                           fences.data(), VK_TRUE, timeout);
  if (lock)
    lock->lock();
  for (Submission *s : targets)
    --s->waiters;
  if (waited == VK_TIMEOUT) {
    std::vector<std::string> running;
    bool copy = false;
    for (Submission *s : targets)
      if (dev.vk.vkGetFenceStatus(dev.device, s->fence.get()) == VK_NOT_READY) {
        if (s->kernel.empty())
          copy = true;
        else
          running.push_back(s->kernel);
      }
    std::string what =
        running.empty() ? std::string(copy ? "a copy" : "the work")
                        : (running.size() == 1 ? "kernel " : "kernels ") +
                              quotedList(running) + (copy ? " and a copy" : "");
    // The device still runs the work: every later call fails, and teardown
    // leaves everything as it is.
    dev.stuck = true;
    dev.broken = rt::makeCallError(
        rt::ErrorKind::Timeout,
        rt::timeoutMessage(what, timeoutSeconds,
                           std::string("'") + dev.properties.deviceName + "'"),
        "vkWaitForFences", "VK_TIMEOUT", waited, __FILE__, __LINE__);
    return dev.broken;
  }
  if (waited == VK_ERROR_DEVICE_LOST) {
    std::vector<std::string> launched;
    for (Submission *s : targets)
      if (!s->kernel.empty())
        launched.push_back(s->kernel);
    std::string kernels = quotedList(launched);
    dev.broken = rt::makeCallError(
        rt::ErrorKind::DeviceLost,
        std::string("device '") + dev.properties.deviceName + "' was lost" +
            (kernels.empty() ? "" : " while waiting for kernel " + kernels) +
            " (vkWaitForFences: VK_ERROR_DEVICE_LOST); a kernel that faults "
            "or runs past the driver's watchdog loses the device",
        "vkWaitForFences", "VK_ERROR_DEVICE_LOST", waited, __FILE__, __LINE__);
    return dev.broken;
  }
  KILN_VK_ON(dev, waited, "vkWaitForFences");
  Status first;
  for (Submission *s : targets) {
    Status status;
    if (!s->done)
      status = complete(s);
    else if (s->waiters == 0)
      status = recycle(s); // Completed by a thread that left it to its last
                           // waiter.
    if (status && !first)
      first = std::move(status);
  }
  KILN_TRY(std::move(first));
  return dev.checkValidation();
}

Status Queue::synchronize(Stream *stream) {
  const std::deque<Submission *> &pending =
      (stream ? stream : &defaultStream_)->pending;
  return waitAndComplete({pending.begin(), pending.end()});
}

Status Queue::drainAll() {
  // Waits release the lock, and other threads may create streams or submit
  // meanwhile: collect under the lock, and go on until nothing is pending
  // while it is held.
  for (;;) {
    std::vector<Submission *> all(defaultStream_.pending.begin(),
                                  defaultStream_.pending.end());
    for (auto &s : streams)
      all.insert(all.end(), s->pending.begin(), s->pending.end());
    if (all.empty())
      return Status::success();
    KILN_TRY(waitAndComplete(std::move(all)));
  }
}

/// Where `handle` is among the objects `owned` holds (end when it is not).
template <typename T>
static auto findOwned(const std::vector<std::unique_ptr<T>> &owned,
                      const T *handle) {
  return std::find_if(owned.begin(), owned.end(),
                      [&](auto &o) { return o.get() == handle; });
}

Status Queue::checkStream(const Stream *stream, const char *what) const {
  if (!stream || stream == &defaultStream_ ||
      findOwned(streams, stream) != streams.end())
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    std::string(what) +
                        " on a stream that mgpuStreamCreate did not return "
                        "(or that was destroyed)");
}

Stream *Queue::createStream() {
  streams.push_back(std::make_unique<Stream>());
  return streams.back().get();
}

Status Queue::destroyStream(Stream *stream) {
  if (!stream)
    return Status::success();
  if (findOwned(streams, stream) == streams.end())
    return KILN_ERROR(InvalidArgument,
                      "mgpuStreamDestroy of a stream that mgpuStreamCreate "
                      "did not return (or that was destroyed)");
  KILN_TRY(synchronize(stream));
  // Looked up again: the wait released the lock.
  auto it = findOwned(streams, stream);
  if (it != streams.end())
    streams.erase(it);
  return Status::success();
}

Event *Queue::createEvent() {
  events.push_back(std::make_unique<Event>());
  return events.back().get();
}

Status Queue::checkEvent(const Event *event, const char *what) const {
  if (event && findOwned(events, event) != events.end())
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    std::string(what) +
                        " of an event that mgpuEventCreate did not return "
                        "(or that was destroyed)");
}

Status Queue::destroyEvent(Event *event) {
  KILN_TRY(checkEvent(event, "mgpuEventDestroy"));
  events.erase(findOwned(events, event));
  return Status::success();
}
