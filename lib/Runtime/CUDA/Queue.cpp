//===- Queue.cpp - Streams, events, waits and timing ----------------------===//
//
// Compiled host code creates and destroys a stream around every launch;
// destroyed streams are kept per context and handed out again, which is
// what a hand-written loop that reuses one stream pays. A wait releases the
// runtime's lock (heldLock) so that other threads go on, and with
// KILN_TIMEOUT polls instead of blocking.
//
//===----------------------------------------------------------------------===//

#include "Queue.h"
#include "../Timeout.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace kiln;
using namespace kiln::cudart;

thread_local std::unique_lock<std::mutex> *Queue::heldLock = nullptr;

//===-- Streams -----------------------------------------------------------===//

Expected<void *> Queue::createStream(CUcontext context) {
  std::vector<CUstream> &pool = streamPool[context];
  if (!pool.empty()) {
    CUstream stream = pool.back();
    pool.pop_back();
    liveStreams.insert(stream);
    return stream;
  }
  CUstream stream = nullptr;
  KILN_TRY(device.check(
      device.driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
      "cuStreamCreate"));
  liveStreams.insert(stream);
  return stream;
}

Status Queue::destroyStream(CUcontext context, CUstream stream) {
  KILN_TRY(checkStream(stream, "mgpuStreamDestroy"));
  liveStreams.erase(stream);
  std::vector<CUstream> &pool = streamPool[context];
  if (pool.size() < 16) {
    pool.push_back(stream);
    return Status::success();
  }
  return device.check(device.driver().cuStreamDestroy(stream),
                      "cuStreamDestroy");
}

void Queue::releaseAll() {
  const Driver &drv = device.driver();
  for (CUstream stream : liveStreams)
    drv.cuStreamDestroy(stream);
  liveStreams.clear();
  for (auto &[context, pool] : streamPool)
    for (CUstream stream : pool)
      drv.cuStreamDestroy(stream);
  streamPool.clear();
}

Status Queue::checkStream(CUstream stream, const char *what) const {
  // Null is the default stream.
  if (!stream || liveStreams.count(stream))
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    std::string(what) +
                        " on a stream that mgpuStreamCreate did not return "
                        "(or that was destroyed)");
}

Status Queue::synchronize(CUstream stream) {
  KILN_TRY(checkStream(stream, "mgpuStreamSynchronize"));
  const Driver &drv = device.driver();
  return waitFor([&] { return drv.cuStreamQuery(stream); },
                 [&] { return drv.cuStreamSynchronize(stream); },
                 "cuStreamSynchronize", device.workOn(stream));
}

Status Queue::streamWaitEvent(CUstream stream, CUevent event) {
  return device.check(device.driver().cuStreamWaitEvent(stream, event, 0),
                      "cuStreamWaitEvent");
}

//===-- Events ------------------------------------------------------------===//

Expected<void *> Queue::createEvent() {
  CUevent event = nullptr;
  KILN_TRY(device.check(
      device.driver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
      "cuEventCreate"));
  return event;
}

Status Queue::destroyEvent(CUevent event) {
  return device.check(device.driver().cuEventDestroy(event), "cuEventDestroy");
}

Status Queue::synchronizeEvent(CUevent event) {
  const Driver &drv = device.driver();
  return waitFor([&] { return drv.cuEventQuery(event); },
                 [&] { return drv.cuEventSynchronize(event); },
                 "cuEventSynchronize", "the work before an event");
}

Status Queue::recordEvent(CUevent event, CUstream stream) {
  return device.check(device.driver().cuEventRecord(event, stream),
                      "cuEventRecord");
}

//===-- Waits and timing --------------------------------------------------===//

Status Queue::waitFor(const std::function<CUresult()> &query,
                      const std::function<CUresult()> &block, const char *call,
                      const std::string &what) {
  const Driver &drv = device.driver();
  std::unique_lock<std::mutex> *lock =
      heldLock && guard && heldLock->mutex() == guard ? heldLock : nullptr;
  if (lock)
    lock->unlock();
  auto relock = [&] {
    if (lock)
      lock->lock();
  };
  auto done = [&](CUresult result) {
    relock();
    if (result == CUDA_SUCCESS)
      return Status::success();
    return device.callError(kindOf(result), result, call,
                            std::string(call) +
                                " failed: " + drv.describe(result) +
                                " while waiting for " + what,
                            __FILE__, __LINE__);
  };
  double timeoutSeconds = device.timeoutSeconds();
  if (timeoutSeconds <= 0)
    return done(block());
  // The first 200 us are polled without sleeping: a short kernel is
  // done within microseconds, and the shortest sleep the kernel grants
  // is about 60 us (measured on an H200: a 9 us launch round trip took
  // 83 us when every wait slept). Longer work is polled with sleeps that
  // grow to 1 ms.
  auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(50);
  while (true) {
    CUresult result = query();
    if (result != CUDA_ERROR_NOT_READY)
      return done(result);
    double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (waited > timeoutSeconds) {
      relock();
      return KILN_ERROR(
          Timeout, rt::timeoutMessage(what, timeoutSeconds,
                                      device.deviceLabel(device.ordinal())));
    }
    if (waited < 200e-6) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

Expected<double> Queue::timed(const std::function<Status(CUstream)> &work) {
  const Driver &drv = device.driver();
  CUstream stream = nullptr;
  CUevent start = nullptr, stop = nullptr;
  ScopeExit release([&] {
    if (start)
      drv.cuEventDestroy(start);
    if (stop)
      drv.cuEventDestroy(stop);
    if (stream)
      drv.cuStreamDestroy(stream);
  });
  KILN_TRY(device.check(drv.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                        "cuStreamCreate"));
  KILN_TRY(device.check(drv.cuEventCreate(&start, CU_EVENT_DEFAULT),
                        "cuEventCreate"));
  KILN_TRY(device.check(drv.cuEventCreate(&stop, CU_EVENT_DEFAULT),
                        "cuEventCreate"));
  KILN_TRY(device.check(drv.cuEventRecord(start, stream), "cuEventRecord"));
  KILN_TRY(work(stream));
  KILN_TRY(device.check(drv.cuEventRecord(stop, stream), "cuEventRecord"));
  KILN_TRY(device.check(drv.cuEventSynchronize(stop), "cuEventSynchronize"));
  float ms = 0;
  KILN_TRY(device.check(drv.cuEventElapsedTime(&ms, start, stop),
                        "cuEventElapsedTime"));
  return ms * 1000.0;
}
