//===- DeviceThreads.cpp - A host thread per device for kiln-bench --------===//
//
// The threads wait on one condition variable for the next round (a new
// generation); the launching thread takes the time just before it wakes
// them, and each thread the time it finished, so a device's time runs from
// the common start to its own finish and the round's is the slowest's.
//
//===----------------------------------------------------------------------===//

#include "DeviceThreads.h"

namespace kiln {
namespace bench {

DeviceThreads::DeviceThreads(Runtime &rt, int count) : rt(rt) {
  streams.assign(count, nullptr);
  finished.resize(count);
  errors.resize(count);
  for (int i = 0; i < count; ++i)
    threads.emplace_back([this, i] { loop(i); });
  try {
    all([this](int i) {
      if (kiln::rt::Status error = this->rt.api->setDefaultDevice(i))
        throw RuntimeFailure(error);
      kiln::rt::Expected<void *> stream = this->rt.api->createStream();
      if (!stream)
        throw RuntimeFailure(stream.error());
      streams[i] = *stream;
    });
  } catch (...) {
    stop();
    throw;
  }
}

DeviceThreads::~DeviceThreads() {
  // After a failure (a lost device, say) these may fail too; the run
  // already reports the first error.
  try {
    all([this](int i) {
      if (streams[i])
        (void)rt.api->destroyStream(streams[i]);
    });
  } catch (...) {
  }
  stop();
}

std::vector<double> DeviceThreads::run(const std::vector<int> &which,
                                       const std::function<void(int)> &work) {
  std::unique_lock<std::mutex> lock(mutex);
  task = &work;
  chosen.assign(threads.size(), false);
  for (int i : which)
    chosen[i] = true;
  pending = int(which.size());
  for (std::exception_ptr &e : errors)
    e = nullptr;
  auto start = std::chrono::steady_clock::now();
  ++generation;
  wake.notify_all();
  done.wait(lock, [this] { return pending == 0; });
  task = nullptr;
  std::vector<double> us(threads.size(), 0);
  for (int i : which)
    us[i] =
        std::chrono::duration<double, std::micro>(finished[i] - start).count();
  for (int i : which)
    if (errors[i])
      std::rethrow_exception(errors[i]);
  return us;
}

std::vector<double> DeviceThreads::all(const std::function<void(int)> &work) {
  std::vector<int> every;
  for (int i = 0; i < count(); ++i)
    every.push_back(i);
  return run(every, work);
}

double DeviceThreads::on(int index, const std::function<void(int)> &work) {
  return run({index}, work)[index];
}

void DeviceThreads::loop(int index) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    wake.wait(lock, [&] { return stopping || generation != seen; });
    if (stopping)
      return;
    seen = generation;
    if (!chosen[index])
      continue;
    const std::function<void(int)> *work = task;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*work)(index);
    } catch (...) {
      error = std::current_exception();
    }
    auto end = std::chrono::steady_clock::now();
    lock.lock();
    finished[index] = end;
    errors[index] = error;
    if (--pending == 0)
      done.notify_one();
  }
}

void DeviceThreads::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  for (std::thread &t : threads)
    t.join();
  threads.clear();
}

} // namespace bench
} // namespace kiln
