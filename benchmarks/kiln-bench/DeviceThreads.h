//===- DeviceThreads.h - kiln-bench's host thread per device ----*- C++ -*-===//
//
// The cases on several devices at once (Families.cpp) run each device's
// part on a host thread of its own, as a program that drives several GPUs
// does: the thread makes its device current (setDefaultDevice), so the
// buffers, streams and launches it makes are that device's. The threads
// live as long as the family's session; a round hands each its work,
// releases them together and waits for all.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_KILNBENCH_DEVICETHREADS_H
#define KILN_BENCHMARKS_KILNBENCH_DEVICETHREADS_H

#include "Bench.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln {
namespace bench {

/// One host thread per device of the runtime's list, each with its device
/// current and a stream of its own there.
class DeviceThreads {
public:
  /// Starts the threads of devices 0..`count`-1; throws RuntimeFailure
  /// when a thread cannot make its device current or create its stream.
  DeviceThreads(Runtime &rt, int count);
  /// Destroys the streams and joins the threads.
  ~DeviceThreads();
  DeviceThreads(const DeviceThreads &) = delete;
  DeviceThreads &operator=(const DeviceThreads &) = delete;

  int count() const { return int(threads.size()); }
  /// Device `index`'s stream.
  void *stream(int index) const { return streams[index]; }

  /// Runs `work(i)` on the thread of each device i in `which`, released
  /// together, and waits for all of them: each one's microseconds from
  /// the release to its finish (0 for the devices not in `which`).
  /// Rethrows the first device's exception once all have finished.
  std::vector<double> run(const std::vector<int> &which,
                          const std::function<void(int)> &work);
  /// `work` on every device at once.
  std::vector<double> all(const std::function<void(int)> &work);
  /// `work` on device `index` alone: its microseconds.
  double on(int index, const std::function<void(int)> &work);

private:
  /// Device `index`'s thread: runs the work of each round it is part of.
  void loop(int index);
  /// Ends and joins the threads.
  void stop();

  Runtime &rt;
  std::vector<std::thread> threads;
  std::vector<void *> streams;
  std::mutex mutex; ///< Guards everything below.
  std::condition_variable wake, done;
  /// Counts the rounds; a thread runs each new one it is part of.
  uint64_t generation = 0;
  const std::function<void(int)> *task = nullptr;
  std::vector<bool> chosen;
  int pending = 0;
  bool stopping = false;
  std::vector<std::chrono::steady_clock::time_point> finished;
  std::vector<std::exception_ptr> errors;
};

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_KILNBENCH_DEVICETHREADS_H
