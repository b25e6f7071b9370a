//===- Streams.h - Stream and event handles ---------------------*- C++ -*-===//
//
// The Streams unit of the spirv-cpu runtime. Launches, copies and fills
// complete before their calls return, so streams and events order nothing;
// they are handles, and every call that takes one looks it up here: one
// that createStream or createEvent did not return, or that was destroyed,
// is an error naming the call. It calls no other unit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_STREAMS_H
#define KILN_RUNTIME_SPIRVCPU_STREAMS_H

#include "kiln/Runtime/Status.h"

#include <memory>
#include <mutex>
#include <set>

namespace kiln::spirvcpu {

class Streams {
public:
  Streams() = default;
  Streams(const Streams &) = delete;
  Streams &operator=(const Streams &) = delete;
  ~Streams();

  /// mgpuStreamCreate.
  void *createStream();
  /// mgpuStreamDestroy of a stream createStream returned.
  rt::Status destroyStream(void *stream);
  /// An error naming `call` unless `stream` is null (the default stream)
  /// or one createStream returned and destroyStream did not destroy.
  rt::Status checkStream(void *stream, const char *call);

  /// mgpuEventCreate.
  void *createEvent();
  /// An error naming `call` unless `event` is one createEvent returned and
  /// that is not destroyed; with `destroy`, destroys it.
  rt::Status checkEvent(void *event, const char *call, bool destroy = false);

private:
  struct Stream {};
  struct Event {};

  std::mutex mutex;
  std::set<Stream *> streams;
  std::set<Event *> events;
};

} // namespace kiln::spirvcpu

#endif // KILN_RUNTIME_SPIRVCPU_STREAMS_H
