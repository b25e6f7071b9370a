//===- DeviceListTest.cpp - The device model over stand-in devices -------===//
//
// rt::DeviceList (lib/Runtime/DeviceList.h) over FakeDevice, an in-memory
// single-device runtime that records what reaches it: which device each
// call lands on, per-thread current devices, modules loaded on a device at
// their first launch there, copies between devices, foreign memory in
// launches, events across devices, timing with the device's index, and that
// two devices' calls do not wait for each other.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/DeviceList.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

using namespace kiln;
using namespace kiln::rt;

namespace {

/// What every FakeDevice of one test shares: a log of the calls.
struct Log {
  std::mutex mutex;
  std::vector<std::string> calls; ///< "device N: call"
  void add(int device, const std::string &call) {
    std::lock_guard<std::mutex> lock(mutex);
    calls.push_back("device " + std::to_string(device) + ": " + call);
  }
  size_t count(const std::string &call) {
    std::lock_guard<std::mutex> lock(mutex);
    return std::count(calls.begin(), calls.end(), call);
  }
};

/// Two launches that wait for each other: each enters, and waits (a second
/// at most) until the other entered too. Serialised devices never meet.
struct Meeting {
  std::mutex mutex;
  std::condition_variable cv;
  int arrived = 0;
  bool met() {
    std::unique_lock<std::mutex> lock(mutex);
    ++arrived;
    cv.notify_all();
    return cv.wait_for(lock, std::chrono::seconds(5),
                       [&] { return arrived >= 2; });
  }
};

/// A single-device runtime on host memory. Kernels are names; a launch
/// stores its first parameter (a float) at the pointer its second one
/// holds, after checking that pointer as a backend's launcher does.
class FakeDevice final : public Runtime {
public:
  FakeDevice(DevicePlace place, Log &log, bool peerCopies, Meeting *meeting)
      : place(std::move(place)), log(log), peerCopies(peerCopies),
        meeting(meeting) {}
  ~FakeDevice() override {
    for (void *a : allocations)
      std::free(a);
  }

  const char *backend() const override { return "fake"; }
  Status configure(const Options &options) override {
    if (options.device)
      entry = *options.device;
    return Status::success();
  }
  Status initialize() override {
    if (entry == "bad")
      return KILN_ERROR(InvalidArgument, "no device matches 'bad'");
    log.add(place.index, "initialize " + entry);
    return Status::success();
  }
  Expected<std::string> describeDevices() override {
    return std::string("0: Fake\n");
  }
  Expected<std::string> deviceTarget() override {
    return "fake-" + std::to_string(place.index);
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    log.add(place.index,
            "load " + std::string(static_cast<const char *>(data), size));
    auto *module = new std::string(static_cast<const char *>(data), size);
    modules.insert(module);
    return static_cast<void *>(module);
  }
  Status unloadModule(void *module) override {
    if (!modules.erase(static_cast<std::string *>(module)))
      return KILN_ERROR(InvalidArgument, "unknown module");
    log.add(place.index, "unload " + *static_cast<std::string *>(module));
    delete static_cast<std::string *>(module);
    return Status::success();
  }
  Expected<void *> getFunction(void *module, const char *name) override {
    if (!modules.count(static_cast<std::string *>(module)))
      return KILN_ERROR(InvalidArgument, "unknown module");
    if (std::string(name) == "missing")
      return KILN_ERROR(InvalidArgument, "no kernel 'missing'");
    auto *kernel = new std::string(name);
    kernels.insert(kernel);
    return static_cast<void *>(kernel);
  }
  Status launch(void *function, Dim3, Dim3, int32_t, void *stream,
                void **params, size_t count) override {
    if (!kernels.count(static_cast<std::string *>(function)))
      return KILN_ERROR(InvalidArgument, "unknown kernel");
    if (stream && !streams.count(stream))
      return KILN_ERROR(InvalidArgument, "unknown stream");
    const std::string &name = *static_cast<std::string *>(function);
    if (count == 2) {
      auto *out = *static_cast<float **>(params[1]);
      if (!owns(out))
        KILN_TRY(
            place.checkLaunchMemory(name, 1, reinterpret_cast<uintptr_t>(out)));
      *out = *static_cast<float *>(params[0]);
    }
    log.add(place.index, "launch " + name);
    if (meeting && !meeting->met())
      return KILN_ERROR(Timeout, "the other device's launch never came");
    if (timing)
      timing(timingUser, name.c_str(), 10.0 + place.index);
    return Status::success();
  }

  Expected<void *> createStream() override {
    void *stream = new char;
    streams.insert(stream);
    return stream;
  }
  Status destroyStream(void *stream) override {
    if (!streams.erase(stream))
      return KILN_ERROR(InvalidArgument, "unknown stream");
    delete static_cast<char *>(stream);
    return Status::success();
  }
  Status synchronize(void *stream) override {
    if (stream && !streams.count(stream))
      return KILN_ERROR(InvalidArgument, "unknown stream");
    log.add(place.index, "synchronize");
    return Status::success();
  }

  Expected<void *> createEvent() override {
    void *event = new char;
    events.insert(event);
    return event;
  }
  Status destroyEvent(void *event) override {
    if (!events.erase(event))
      return KILN_ERROR(InvalidArgument, "unknown event");
    delete static_cast<char *>(event);
    return Status::success();
  }
  Status recordEvent(void *event, void *stream) override {
    if (!events.count(event))
      return KILN_ERROR(InvalidArgument, "unknown event");
    log.add(place.index, "record");
    return Status::success();
  }
  Status synchronizeEvent(void *event) override {
    if (!events.count(event))
      return KILN_ERROR(InvalidArgument, "unknown event");
    log.add(place.index, "event synchronize");
    return Status::success();
  }
  Status streamWaitEvent(void *stream, void *event) override {
    if (!events.count(event))
      return KILN_ERROR(InvalidArgument, "unknown event");
    log.add(place.index, "stream wait");
    return Status::success();
  }

  Expected<void *> allocate(uint64_t bytes, bool) override {
    void *a = std::calloc(1, bytes ? bytes : 1);
    allocations.insert(a);
    return a;
  }
  Status free(void *pointer) override {
    if (!allocations.erase(pointer))
      return KILN_ERROR(InvalidArgument, "not an allocation");
    std::free(pointer);
    return Status::success();
  }
  /// As a backend's copy: either side is this device's memory or host
  /// memory, never another device's.
  Status copy(void *dst, const void *src, size_t bytes, void *) override {
    for (const void *p : {static_cast<const void *>(dst), src})
      if (!owns(p) && place.ownerOf &&
          place.ownerOf(reinterpret_cast<uintptr_t>(p)) >= 0)
        return KILN_ERROR(InvalidArgument, "another device's memory");
    std::memcpy(dst, src, bytes);
    log.add(place.index, "copy");
    return Status::success();
  }
  Status fill(void *dst, uint32_t value, unsigned, size_t count,
              void *) override {
    for (size_t i = 0; i < count; ++i)
      static_cast<uint32_t *>(dst)[i] = value;
    log.add(place.index, "fill");
    return Status::success();
  }
  Expected<bool> copyFromPeer(void *dst, Runtime &source, const void *src,
                              size_t bytes) override {
    if (!peerCopies || !dynamic_cast<FakeDevice *>(&source))
      return false;
    std::memcpy(dst, src, bytes);
    log.add(place.index, "peer copy");
    return true;
  }
  Status setDefaultDevice(int32_t) override {
    return KILN_ERROR(InvalidArgument, "a single device has no others");
  }
  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    timing = callback;
    timingUser = user;
    return Status::success();
  }
  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return 1.0;
  }

  bool owns(const void *p) const {
    // Pointers to an allocation's first byte only: enough for these tests.
    return allocations.count(const_cast<void *>(p));
  }

  DevicePlace place;
  std::string entry = "(unset)";

private:
  Log &log;
  bool peerCopies;
  Meeting *meeting;
  std::set<std::string *> modules, kernels;
  std::set<void *> streams, events, allocations;
  KilnTimingCallback timing = nullptr;
  void *timingUser = nullptr;
};

/// A list of fake devices.
struct Devices {
  Log log;
  bool peerCopies = false;
  Meeting *meeting = nullptr;
  std::vector<FakeDevice *> made;
  DeviceList list{"fake", "KILN_FAKE_DEVICE", [this](DevicePlace place) {
                    auto device = std::make_unique<FakeDevice>(
                        std::move(place), log, peerCopies, meeting);
                    made.push_back(device.get());
                    return device;
                  }};

  explicit Devices(const std::string &entries) {
    Options options;
    options.device = entries;
    EXPECT_FALSE(list.configure(options));
  }
};

template <typename T> T value(Expected<T> e) {
  EXPECT_TRUE(e) << (e ? "" : e.error().message());
  return e ? *e : T();
}

TEST(DeviceList, ParsesEntries) {
  auto two = parseDeviceList("0,0", "--device");
  ASSERT_TRUE(two);
  EXPECT_EQ(*two, (std::vector<std::string>{"0", "0"}));
  auto trimmed = parseDeviceList(" llvmpipe , 1 ", "--device");
  ASSERT_TRUE(trimmed);
  EXPECT_EQ(*trimmed, (std::vector<std::string>{"llvmpipe", "1"}));
  auto none = parseDeviceList("", "--device");
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, (std::vector<std::string>{""}));
  auto empty = parseDeviceList("0,,1", "KILN_VULKAN_DEVICE");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message().find("KILN_VULKAN_DEVICE='0,,1': entry 1 "
                                         "is empty"),
            std::string::npos)
      << empty.error().message();
}

TEST(DeviceList, EachEntryIsADeviceConfiguredWithItsEntry) {
  Devices d("0,0,gpu");
  EXPECT_EQ(d.list.deviceCount(), 3);
  EXPECT_FALSE(d.list.initialize());
  ASSERT_EQ(d.made.size(), 3u);
  EXPECT_EQ(d.made[0]->entry, "0");
  EXPECT_EQ(d.made[2]->entry, "gpu");
  EXPECT_EQ(d.made[1]->place.index, 1);
  EXPECT_EQ(d.made[1]->place.count, 3);
  EXPECT_EQ(d.log.count("device 2: initialize gpu"), 1u);
}

TEST(DeviceList, ABadEntryIsAnErrorNamingItsDevice) {
  Devices d("0,bad");
  Status status = d.list.initialize();
  ASSERT_TRUE(status);
  EXPECT_EQ(status.message(),
            "device 1 (entry 'bad'): no device matches 'bad'");
}

TEST(DeviceList, ItsFirstUseOpensEveryDevice) {
  Devices d("0,bad");
  // Listing devices opens none.
  EXPECT_EQ(value(d.list.describeDevices()).rfind("0: Fake\n", 0), 0u);
  EXPECT_EQ(d.log.count("device 0: initialize 0"), 0u);
  Expected<void *> stream = d.list.createStream();
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().message(),
            "device 1 (entry 'bad'): no device matches 'bad'");
  EXPECT_EQ(d.log.count("device 0: initialize 0"), 1u);
  // The same error every time, without opening again.
  EXPECT_TRUE(d.list.allocate(4, false).error());
  EXPECT_EQ(d.log.count("device 0: initialize 0"), 1u);
}

TEST(DeviceList, TheDefaultIsOneDeviceAndTheEnvironmentAList) {
  DeviceList alone("fake", "KILN_FAKE_DEVICE_UNSET_XYZ", [](DevicePlace p) {
    Log *log = new Log(); // leaked on purpose: the device outlives the test
    return std::make_unique<FakeDevice>(p, *log, false, nullptr);
  });
  EXPECT_EQ(alone.deviceCount(), 1);
  setenv("KILN_FAKE_DEVICE_LIST_TEST", "1,0", 1);
  DeviceList fromEnv("fake", "KILN_FAKE_DEVICE_LIST_TEST", [](DevicePlace p) {
    Log *log = new Log();
    return std::make_unique<FakeDevice>(p, *log, false, nullptr);
  });
  EXPECT_EQ(fromEnv.deviceCount(), 2);
  Status past = fromEnv.setDefaultDevice(2);
  ASSERT_TRUE(past);
  EXPECT_NE(past.message().find("KILN_FAKE_DEVICE_LIST_TEST=1,0"),
            std::string::npos)
      << past.message();
  unsetenv("KILN_FAKE_DEVICE_LIST_TEST");
}

TEST(DeviceList, AnIndexPastTheListIsAnErrorNamingTheList) {
  Devices d("0,0");
  Status status = d.list.setDefaultDevice(2);
  ASSERT_TRUE(status);
  EXPECT_EQ(status.message(), "mgpuSetDefaultDevice(2): the program has 2 "
                              "devices (--device=0,0), numbered 0..1");
  EXPECT_TRUE(d.list.setDefaultDevice(-1));
  EXPECT_EQ(d.list.currentDevice(), 0);
}

TEST(DeviceList, TheListIsSetBeforeItsFirstUse) {
  Devices d("0,0");
  EXPECT_EQ(d.list.deviceCount(), 2);
  Options later;
  later.device = "0";
  Status status = d.list.configure(later);
  ASSERT_TRUE(status);
  EXPECT_NE(status.message().find("set before its first use"),
            std::string::npos);
}

TEST(DeviceList, EachThreadHasItsOwnCurrentDevice) {
  Devices d("0,0");
  EXPECT_FALSE(d.list.setDefaultDevice(1));
  EXPECT_EQ(d.list.currentDevice(), 1);
  int other = -1;
  std::thread([&] { other = d.list.currentDevice(); }).join();
  EXPECT_EQ(other, 0);
  EXPECT_EQ(value(d.list.deviceTarget()), "fake-1");
  EXPECT_FALSE(d.list.setDefaultDevice(0));
  EXPECT_EQ(value(d.list.deviceTarget()), "fake-0");
}

TEST(DeviceList, ALaunchRunsOnItsStreamsDeviceWithTheModuleLoadedThere) {
  Devices d("0,0");
  const char blob[] = "module-a";
  void *module = value(d.list.loadModule(blob, sizeof(blob) - 1));
  void *kernel = value(d.list.getFunction(module, "k"));
  // The same handle every time (MLIR looks kernels up at each launch).
  EXPECT_EQ(value(d.list.getFunction(module, "k")), kernel);
  EXPECT_EQ(d.log.count("device 0: load module-a"), 1u);

  ASSERT_FALSE(d.list.setDefaultDevice(1));
  void *stream1 = value(d.list.createStream());
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, stream1, nullptr, 0));
  EXPECT_EQ(d.log.count("device 1: load module-a"), 1u);
  EXPECT_EQ(d.log.count("device 1: launch k"), 1u);
  // A stream made on device 1 keeps it after the thread switches back.
  ASSERT_FALSE(d.list.setDefaultDevice(0));
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, stream1, nullptr, 0));
  EXPECT_EQ(d.log.count("device 1: launch k"), 2u);
  EXPECT_EQ(d.log.count("device 1: load module-a"), 1u);
  // The default stream is the current device's.
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, nullptr, nullptr, 0));
  EXPECT_EQ(d.log.count("device 0: launch k"), 1u);
  ASSERT_FALSE(d.list.synchronize(stream1));
  EXPECT_EQ(d.log.count("device 1: synchronize"), 1u);
  ASSERT_FALSE(d.list.destroyStream(stream1));

  // Unloading unloads it everywhere; its kernel is gone with it.
  ASSERT_FALSE(d.list.unloadModule(module));
  EXPECT_EQ(d.log.count("device 0: unload module-a"), 1u);
  EXPECT_EQ(d.log.count("device 1: unload module-a"), 1u);
  Status stale = d.list.launch(kernel, {}, {}, 0, nullptr, nullptr, 0);
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale.message(), "unknown kernel");
}

TEST(DeviceList, UnknownHandlesAreRefusedByTheCurrentDevice) {
  Devices d("0,0");
  int junk;
  EXPECT_EQ(d.list.destroyStream(&junk).message(), "unknown stream");
  EXPECT_EQ(d.list.synchronize(&junk).message(), "unknown stream");
  EXPECT_EQ(d.list.unloadModule(&junk).message(), "unknown module");
  EXPECT_EQ(d.list.destroyEvent(&junk).message(), "unknown event");
  EXPECT_EQ(d.list.free(&junk).message(), "not an allocation");
  const char blob[] = "m";
  void *module = value(d.list.loadModule(blob, 1));
  Expected<void *> missing = d.list.getFunction(module, "missing");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message(), "no kernel 'missing'");
  void *kernel = value(d.list.getFunction(module, "k"));
  EXPECT_EQ(d.list.launch(kernel, {}, {}, 0, &junk, nullptr, 0).message(),
            "unknown stream");
}

TEST(DeviceList, MemoryBelongsToItsDeviceAndCopiesCrossThroughTheHost) {
  Devices d("0,0");
  float *a = static_cast<float *>(value(d.list.allocate(64, false)));
  ASSERT_FALSE(d.list.setDefaultDevice(1));
  float *b = static_cast<float *>(value(d.list.allocate(64, false)));
  EXPECT_EQ(d.list.ownerOf(reinterpret_cast<uintptr_t>(a)), 0);
  EXPECT_EQ(d.list.ownerOf(reinterpret_cast<uintptr_t>(b + 15)), 1);
  float host[16];
  EXPECT_EQ(d.list.ownerOf(reinterpret_cast<uintptr_t>(host)), -1);

  for (int i = 0; i < 16; ++i)
    host[i] = float(i);
  // Host to device 0 while device 1 is current: the copy goes to device 0.
  ASSERT_FALSE(d.list.copy(a, host, 64, nullptr));
  EXPECT_EQ(d.log.count("device 0: copy"), 1u);
  ASSERT_FALSE(d.list.copy(b, a, 64, nullptr));
  EXPECT_EQ(0, std::memcmp(a, b, 64));
  // Through the host: one copy out of device 0, one into device 1.
  EXPECT_EQ(d.log.count("device 0: copy"), 2u);
  EXPECT_EQ(d.log.count("device 1: copy"), 1u);
  ASSERT_FALSE(d.list.fill(a, 7, 4, 16, nullptr));
  EXPECT_EQ(d.log.count("device 0: fill"), 1u);
  Expected<double> timed = d.list.deviceCopy(a, b, 64);
  ASSERT_FALSE(timed);
  EXPECT_NE(timed.error().message().find("stays on one device"),
            std::string::npos);
  ASSERT_FALSE(d.list.free(a));
  EXPECT_EQ(d.list.ownerOf(reinterpret_cast<uintptr_t>(a)), -1);
  ASSERT_FALSE(d.list.free(b));
}

TEST(DeviceList, APeerCopySkipsTheHost) {
  Devices d("0,0");
  d.peerCopies = true;
  void *a = value(d.list.allocate(64, false));
  ASSERT_FALSE(d.list.setDefaultDevice(1));
  void *b = value(d.list.allocate(64, false));
  ASSERT_FALSE(d.list.copy(a, b, 64, nullptr));
  EXPECT_EQ(d.log.count("device 0: peer copy"), 1u);
  EXPECT_EQ(d.log.count("device 1: copy"), 0u);
}

TEST(DeviceList, ALaunchRefusesAnotherDevicesMemory) {
  Devices d("0,0");
  const char blob[] = "m";
  void *kernel =
      value(d.list.getFunction(value(d.list.loadModule(blob, 1)), "store"));
  float *mine = static_cast<float *>(value(d.list.allocate(4, false)));
  ASSERT_FALSE(d.list.setDefaultDevice(1));
  float *theirs = static_cast<float *>(value(d.list.allocate(4, false)));
  ASSERT_FALSE(d.list.setDefaultDevice(0));
  float x = 3;
  void *params[] = {&x, &mine};
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, nullptr, params, 2));
  EXPECT_EQ(*mine, 3.0f);
  float host = 0;
  float *hostPointer = &host;
  params[1] = &hostPointer;
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, nullptr, params, 2));
  EXPECT_EQ(host, 3.0f);
  params[1] = &theirs;
  Status refused = d.list.launch(kernel, {}, {}, 0, nullptr, params, 2);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused.message(),
            "kernel 'store' argument 1 is memory of device 1 (its "
            "gpu.alloc), but the launch runs on device 0; copy it to device "
            "0 first (gpu.memcpy)");
  EXPECT_EQ(*theirs, 0.0f);
}

TEST(DeviceList, EventsFollowTheStreamThatRecordedThem) {
  Devices d("0,0");
  void *event = value(d.list.createEvent());
  ASSERT_FALSE(d.list.setDefaultDevice(1));
  void *stream1 = value(d.list.createStream());
  ASSERT_FALSE(d.list.recordEvent(event, stream1));
  EXPECT_EQ(d.log.count("device 1: record"), 1u);
  ASSERT_FALSE(d.list.synchronizeEvent(event));
  EXPECT_EQ(d.log.count("device 1: event synchronize"), 1u);
  // A stream of device 0 waiting for it: the host waits for device 1.
  ASSERT_FALSE(d.list.setDefaultDevice(0));
  void *stream0 = value(d.list.createStream());
  ASSERT_FALSE(d.list.streamWaitEvent(stream0, event));
  EXPECT_EQ(d.log.count("device 1: event synchronize"), 2u);
  EXPECT_EQ(d.log.count("device 0: stream wait"), 0u);
  // On its own device, a stream wait is the device's.
  ASSERT_FALSE(d.list.streamWaitEvent(stream1, event));
  EXPECT_EQ(d.log.count("device 1: stream wait"), 1u);
  ASSERT_FALSE(d.list.destroyEvent(event));
}

struct Timed {
  std::mutex mutex;
  std::vector<std::pair<int, std::string>> seen;
};

TEST(DeviceList, TimingNamesTheDevice) {
  Devices d("0,0");
  Timed timed;
  ASSERT_FALSE(d.list.setDeviceTimingCallback(
      [](void *user, const char *kernel, int32_t device, double) {
        auto *t = static_cast<Timed *>(user);
        std::lock_guard<std::mutex> lock(t->mutex);
        t->seen.push_back({device, kernel});
      },
      &timed));
  const char blob[] = "m";
  void *kernel =
      value(d.list.getFunction(value(d.list.loadModule(blob, 1)), "k"));
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, nullptr, nullptr, 0));
  ASSERT_FALSE(d.list.setDefaultDevice(1));
  // Device 1 is made after the callback was set: it gets it too.
  void *stream = value(d.list.createStream());
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, stream, nullptr, 0));
  EXPECT_EQ(timed.seen,
            (std::vector<std::pair<int, std::string>>{{0, "k"}, {1, "k"}}));
  ASSERT_FALSE(d.list.setTimingCallback(nullptr, nullptr));
  ASSERT_FALSE(d.list.launch(kernel, {}, {}, 0, stream, nullptr, 0));
  EXPECT_EQ(timed.seen.size(), 2u);
}

TEST(DeviceList, TwoDevicesRunAtTheSameTime) {
  Meeting meeting;
  Devices d("0,0");
  d.meeting = &meeting;
  const char blob[] = "m";
  void *kernel =
      value(d.list.getFunction(value(d.list.loadModule(blob, 1)), "k"));
  Status results[2];
  std::thread threads[2];
  for (int i = 0; i < 2; ++i)
    threads[i] = std::thread([&, i] {
      results[i] = d.list.setDefaultDevice(i);
      if (!results[i])
        results[i] = d.list.launch(kernel, {}, {}, 0, nullptr, nullptr, 0);
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_FALSE(results[0]) << results[0].message();
  EXPECT_FALSE(results[1]) << results[1].message();
  EXPECT_EQ(d.log.count("device 0: launch k"), 1u);
  EXPECT_EQ(d.log.count("device 1: launch k"), 1u);
}

} // namespace
