//===- Queue.h - Streams, events, waits and timing --------------*- C++ -*-===//
//
// The Queue unit of the CUDA runtime: the streams mgpuStreamCreate handed
// out (destroyed ones are pooled per context and handed out again), events,
// the waits for either (which release the runtime's lock meanwhile and stop
// at KILN_TIMEOUT), and work timed between two events. Stream handles are
// looked up here, never handed to the driver on trust. It reads a Device and
// calls nothing above it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_QUEUE_H
#define KILN_RUNTIME_CUDA_QUEUE_H

#include "Device.h"

#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace kiln::cudart {

/// Streams and events of the device's contexts. Every method expects the
/// caller to hold the runtime's lock and the device's context to be
/// current.
class Queue {
public:
  /// `guard` is the mutex of the device's runtime (null: none), which a
  /// wait releases when the calling thread holds it.
  explicit Queue(Device &device, std::mutex *guard = nullptr)
      : device(device), guard(guard) {}

  /// The lock on a device's runtime the calling thread holds, when an entry
  /// point took it (the innermost one): a wait for this device releases it
  /// meanwhile when it is this device's, so that other threads go on (the
  /// driver API is thread-safe). Other devices' locks stay as they are.
  static thread_local std::unique_lock<std::mutex> *heldLock;

  /// mgpuStreamCreate on `context`, the current one.
  Expected<void *> createStream(CUcontext context);
  /// mgpuStreamDestroy of a stream other than the default one.
  Status destroyStream(CUcontext context, CUstream stream);
  /// An error unless `stream` is the default stream (null) or one
  /// mgpuStreamCreate returned and mgpuStreamDestroy did not destroy;
  /// `what` names the entry point.
  Status checkStream(CUstream stream, const char *what) const;
  Status synchronize(CUstream stream);
  Status streamWaitEvent(CUstream stream, CUevent event);

  Expected<void *> createEvent();
  Status destroyEvent(CUevent event);
  Status synchronizeEvent(CUevent event);
  Status recordEvent(CUevent event, CUstream stream);

  /// Destroys every stream of this device (when the runtime goes).
  void releaseAll();

  /// Runs `work(stream)` on a fresh stream between two events, waits for
  /// them and returns the GPU microseconds between them; the stream and the
  /// events are released on every path.
  Expected<double> timed(const std::function<Status(CUstream)> &work);

private:
  /// Waits for a stream or event: `block` without KILN_TIMEOUT; with it,
  /// `query` polled until done, and past the limit a Timeout error that
  /// names `what` and the limit (the device still runs the work).
  Status waitFor(const std::function<CUresult()> &query,
                 const std::function<CUresult()> &block, const char *call,
                 const std::string &what);

  Device &device;
  std::mutex *guard;
  /// Streams mgpuStreamCreate returned and mgpuStreamDestroy did not
  /// destroy: what the runtime accepts as handles.
  std::set<CUstream> liveStreams;
  /// Destroyed streams, per context, for mgpuStreamCreate to reuse.
  std::map<CUcontext, std::vector<CUstream>> streamPool;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_QUEUE_H
