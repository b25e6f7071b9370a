//===- Streams.cpp - Stream and event handles -----------------------------===//

#include "Streams.h"
#include "Text.h"

#include <string>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Status;

Streams::~Streams() {
  for (Stream *stream : streams)
    delete stream;
  for (Event *event : events)
    delete event;
}

void *Streams::createStream() {
  std::lock_guard<std::mutex> lock(mutex);
  auto *stream = new Stream();
  streams.insert(stream);
  return static_cast<void *>(stream);
}

Status Streams::destroyStream(void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!streams.erase(static_cast<Stream *>(stream)))
    return KILN_ERROR(InvalidArgument, "mgpuStreamDestroy of " +
                                           pointerText(stream) +
                                           ", which is no stream");
  delete static_cast<Stream *>(stream);
  return Status::success();
}

Status Streams::checkStream(void *stream, const char *call) {
  std::lock_guard<std::mutex> lock(mutex);
  if (stream && !streams.count(static_cast<Stream *>(stream)))
    return KILN_ERROR(InvalidArgument, std::string(call) + " on " +
                                           pointerText(stream) +
                                           ", which is no stream");
  return Status::success();
}

void *Streams::createEvent() {
  std::lock_guard<std::mutex> lock(mutex);
  auto *event = new Event();
  events.insert(event);
  return static_cast<void *>(event);
}

Status Streams::checkEvent(void *event, const char *call, bool destroy) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = events.find(static_cast<Event *>(event));
  if (it == events.end())
    return KILN_ERROR(InvalidArgument, std::string(call) + " on " +
                                           pointerText(event) +
                                           ", which is no event");
  if (destroy) {
    events.erase(it);
    delete static_cast<Event *>(event);
  }
  return Status::success();
}
