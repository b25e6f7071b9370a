//===- DeviceListMemory.cpp - Memory and timing across devices ----------===//
//
// rt::DeviceList's (DeviceList.h) memory: allocations recorded with their
// device, copies and fills run on the device whose memory they touch, copies
// between two devices through the host or the backend's peer copy; and its
// timing callbacks, which add each launch's device index. The locking rule
// of DeviceList.cpp holds: no call into a device under the list's lock.
//
//===----------------------------------------------------------------------===//

#include "../DeviceList.h"

#include <algorithm>
#include <new>

namespace kiln {
namespace rt {

namespace {
/// Copies between devices through host memory go in pieces of at most this
/// many bytes.
constexpr size_t kStagingBytes = size_t(64) << 20;
} // namespace

//===-- Memory ------------------------------------------------------------===//

Expected<void *> DeviceList::allocate(uint64_t bytes, bool hostShared) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  KILN_ASSIGN_OR_RETURN(void *pointer, device->allocate(bytes, hostShared));
  if (pointer) {
    std::unique_lock<std::shared_mutex> lock(mutex);
    allocations[reinterpret_cast<uintptr_t>(pointer)] = {bytes, currentIndex()};
  }
  return pointer;
}

Status DeviceList::free(void *pointer) {
  int index = -1;
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = allocations.find(reinterpret_cast<uintptr_t>(pointer));
    if (it != allocations.end())
      index = it->second.second;
  }
  KILN_ASSIGN_OR_RETURN(Runtime * device,
                        index < 0 ? current() : this->device(index));
  KILN_TRY(device->free(pointer));
  std::unique_lock<std::shared_mutex> lock(mutex);
  allocations.erase(reinterpret_cast<uintptr_t>(pointer));
  return Status::success();
}

Status DeviceList::copyAcross(int dstDevice, void *dst, int srcDevice,
                              const void *src, size_t bytes) {
  KILN_ASSIGN_OR_RETURN(Runtime * to, device(dstDevice));
  KILN_ASSIGN_OR_RETURN(Runtime * from, device(srcDevice));
  KILN_ASSIGN_OR_RETURN(bool done, to->copyFromPeer(dst, *from, src, bytes));
  if (done)
    return Status::success();
  // Through host memory, a piece at a time; each piece is waited for on
  // both sides before the buffer is reused.
  size_t piece = std::min(bytes, kStagingBytes);
  std::unique_ptr<unsigned char[]> buffer(
      new (std::nothrow) unsigned char[piece ? piece : 1]);
  if (!buffer)
    return KILN_ERROR(OutOfMemory,
                      "gpu.memcpy from device " + std::to_string(srcDevice) +
                          " to device " + std::to_string(dstDevice) +
                          ": no host memory for a " + std::to_string(piece) +
                          "-byte staging buffer");
  for (size_t done = 0; done < bytes; done += piece) {
    size_t n = std::min(piece, bytes - done);
    KILN_TRY(from->copy(buffer.get(), static_cast<const char *>(src) + done, n,
                        nullptr));
    KILN_TRY(from->synchronize(nullptr));
    KILN_TRY(
        to->copy(static_cast<char *>(dst) + done, buffer.get(), n, nullptr));
    KILN_TRY(to->synchronize(nullptr));
  }
  return Status::success();
}

Status DeviceList::copy(void *dst, const void *src, size_t bytes,
                        void *stream) {
  int onStream = streamDevice(stream);
  int to = memoryDevice(dst), from = memoryDevice(src);
  if (onStream < 0) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    return device->copy(dst, src, bytes, stream);
  }
  if (to >= 0 && from >= 0 && to != from) {
    if (stream) {
      KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(onStream));
      KILN_TRY(device->synchronize(stream));
    }
    return copyAcross(to, dst, from, src, bytes);
  }
  int index = to >= 0 ? to : from >= 0 ? from : onStream;
  if (stream && index != onStream) {
    // Ordered after the stream's work, then done on the memory's device.
    KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(onStream));
    KILN_TRY(device->synchronize(stream));
    stream = nullptr;
  }
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(index));
  return device->copy(dst, src, bytes, stream);
}

Status DeviceList::fill(void *dst, uint32_t pattern, unsigned patternBytes,
                        size_t count, void *stream) {
  int onStream = streamDevice(stream);
  if (onStream < 0) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, current());
    return device->fill(dst, pattern, patternBytes, count, stream);
  }
  int to = memoryDevice(dst);
  int index = to >= 0 ? to : onStream;
  if (stream && index != onStream) {
    KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(onStream));
    KILN_TRY(device->synchronize(stream));
    stream = nullptr;
  }
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(index));
  return device->fill(dst, pattern, patternBytes, count, stream);
}

Expected<double> DeviceList::deviceCopy(void *dst, const void *src,
                                        size_t bytes) {
  int to = memoryDevice(dst), from = memoryDevice(src);
  if (to >= 0 && from >= 0 && to != from)
    return KILN_ERROR(InvalidArgument,
                      "a timed device copy stays on one device; the "
                      "destination is memory of device " +
                          std::to_string(to) + " and the source of device " +
                          std::to_string(from));
  int index = to >= 0 ? to : from >= 0 ? from : currentIndex();
  KILN_ASSIGN_OR_RETURN(Runtime * device, this->device(index));
  return device->deviceCopy(dst, src, bytes);
}

// Host registration pins host memory for the current device (CUDA
// registers it for every context); the others accept it and do nothing.
Status DeviceList::hostRegister(void *pointer, uint64_t bytes) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  return device->hostRegister(pointer, bytes);
}

Status DeviceList::hostUnregister(void *pointer) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  return device->hostUnregister(pointer);
}

Status DeviceList::hostRegisterMemRef(int64_t rank, void *descriptor,
                                      int64_t elementBytes) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  return device->hostRegisterMemRef(rank, descriptor, elementBytes);
}

Status DeviceList::hostUnregisterMemRef(int64_t rank, void *descriptor,
                                        int64_t elementBytes) {
  KILN_ASSIGN_OR_RETURN(Runtime * device, current());
  return device->hostUnregisterMemRef(rank, descriptor, elementBytes);
}

//===-- Timing ------------------------------------------------------------===//

namespace {
/// What each device's timing callback calls: the list's callback, with the
/// device's index.
void timingTrampoline(void *user, const char *kernel, double us);
} // namespace

Status DeviceList::installTiming(Slot &slot, bool on) {
  return slot.runtime->setTimingCallback(on ? timingTrampoline : nullptr,
                                         on ? &slot : nullptr);
}

void DeviceList::reportTiming(int index, const char *kernel, double us) {
  KilnTimingCallback plain;
  KilnDeviceTimingCallback indexed;
  void *user;
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    plain = timing;
    indexed = deviceTiming;
    user = timingUser;
  }
  if (indexed)
    indexed(user, kernel, index, us);
  else if (plain)
    plain(user, kernel, us);
}

namespace {
void timingTrampoline(void *user, const char *kernel, double us) {
  auto *slot = static_cast<DeviceList::Slot *>(user);
  slot->list->reportTiming(slot->index, kernel, us);
}
} // namespace

Status DeviceList::setTimingCallback(KilnTimingCallback callback, void *user) {
  return setTiming(callback, nullptr, user);
}

Status DeviceList::setDeviceTimingCallback(KilnDeviceTimingCallback callback,
                                           void *user) {
  return setTiming(nullptr, callback, user);
}

Status DeviceList::setTiming(KilnTimingCallback plain,
                             KilnDeviceTimingCallback indexed, void *user) {
  // A device made meanwhile takes the callback set here, or is in
  // `devices` when they are collected below.
  std::lock_guard<std::mutex> makingLock(making);
  std::vector<Slot *> made;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    timing = plain;
    deviceTiming = indexed;
    timingUser = user;
    for (std::unique_ptr<Slot> &slot : devices)
      if (slot)
        made.push_back(slot.get());
  }
  for (Slot *slot : made)
    KILN_TRY(installTiming(*slot, plain || indexed));
  return Status::success();
}

} // namespace rt
} // namespace kiln
