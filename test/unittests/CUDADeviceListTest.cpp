//===- CUDADeviceListTest.cpp - Several CUDA devices in one process -------===//
//
// rt::DeviceLists of the tests' own over the CUDA runtime's single devices
// (makeDeviceRuntime), against FakeCUDADriver's two devices, each list
// "0,1" (two GPUs) and "0,0" (one GPU listed twice): devices independent of
// each other, each thread's current device, copies between devices (a peer
// copy), a launch refusing another device's memory, devices outside the
// list, entries by UUID, timing by device, two devices that do not wait for
// each other's lock, host memory shared by the devices, and a list that
// releases what its devices hold.
//
//===----------------------------------------------------------------------===//

#include "CUDA/DeviceRuntime.h"
#include "DeviceList.h"
#include "kiln/Runtime/Runtime.h"

#include "FakeCUDA.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::rt::DeviceList;
using kiln::rt::Dim3;
using kiln::rt::ErrorKind;
using kiln::rt::Expected;
using kiln::rt::Runtime;
using kiln::rt::Status;
using kiln::test::fake;

/// A kernel that takes a pointer, a 32-bit scalar and another pointer, and
/// one with no parameters.
constexpr const char *kPTX = R"(//
.version 7.8
.target sm_90
.address_size 64
.visible .entry take_pointers(
	.param .u64 take_pointers_param_0,
	.param .u32 take_pointers_param_1,
	.param .u64 .ptr .align 1 take_pointers_param_2
)
{
	ret;
}
.visible .entry add_one()
{
	ret;
}
)";

std::string text(const Status &status) {
  return status ? status.message() : "success";
}

/// A list over the CUDA runtime's single devices, with `devices` as its
/// --device.
std::unique_ptr<DeviceList> makeList(const std::string &devices,
                                     bool timing = false) {
  auto list = std::make_unique<DeviceList>("cuda", "KILN_CUDA_DEVICE",
                                           kiln::cudart::makeDeviceRuntime);
  kiln::rt::Options options;
  options.device = devices;
  if (timing)
    options.timing = true;
  EXPECT_FALSE(list->configure(options));
  return list;
}

/// The physical device (the stand-in's ordinal) of each entry of the lists
/// the tests use.
struct Listed {
  const char *devices;
  int physical[2];
};
const Listed kLists[] = {{"0,1", {0, 1}}, {"0,0", {0, 0}}};

/// Launches `function` (a list's kernel) with `params` on `stream` and waits.
Status launchAndWait(Runtime &list, void *function, void *stream,
                     void **params = nullptr, size_t count = 0) {
  KILN_TRY(list.launch(function, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, stream,
                       params, count));
  return list.synchronize(stream);
}

TEST(CUDADeviceList, EntriesAreIndependentDevices) {
  auto lastDevice = fake<int (*)()>("fakeCudaLastLaunchDevice");
  for (const Listed &listed : kLists) {
    SCOPED_TRACE(listed.devices);
    auto list = makeList(listed.devices);
    ASSERT_FALSE(list->initialize()) << text(list->initialize());
    EXPECT_EQ(list->deviceCount(), 2);
    Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
    ASSERT_TRUE(module) << text(module.error());
    Expected<void *> function = list->getFunction(*module, "add_one");
    ASSERT_TRUE(function) << text(function.error());

    std::vector<void *> streams, memory;
    for (int device = 0; device < 2; ++device) {
      ASSERT_FALSE(list->setDefaultDevice(device));
      EXPECT_EQ(list->currentDevice(), device);
      Expected<void *> stream = list->createStream();
      ASSERT_TRUE(stream) << text(stream.error());
      streams.push_back(*stream);
      Expected<void *> allocation = list->allocate(256, false);
      ASSERT_TRUE(allocation) << text(allocation.error());
      memory.push_back(*allocation);
      EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*allocation) + 255),
                device);
      // The module loaded on device 0 is loaded on device 1 at its first
      // launch there.
      ASSERT_FALSE(launchAndWait(*list, *function, *stream));
      EXPECT_EQ(lastDevice(), listed.physical[device]);
    }
    // Each device knows its own streams only, also on the same GPU.
    Expected<Runtime *> second = list->device(1);
    ASSERT_TRUE(second);
    Status foreign = (*second)->synchronize(streams[0]);
    EXPECT_EQ(foreign.kind(), ErrorKind::InvalidArgument) << text(foreign);
    EXPECT_NE(text(foreign).find("a stream that mgpuStreamCreate did not "
                                 "return"),
              std::string::npos)
        << text(foreign);
    // A fill routed by its memory's device.
    ASSERT_FALSE(list->setDefaultDevice(0));
    EXPECT_FALSE(list->fill32(memory[1], 7, 64, nullptr));
    std::vector<uint32_t> back(64);
    EXPECT_FALSE(list->copy(back.data(), memory[1], 256, nullptr));
    EXPECT_EQ(back, std::vector<uint32_t>(64, 7));
    for (int device = 0; device < 2; ++device) {
      EXPECT_FALSE(list->destroyStream(streams[device]));
      EXPECT_FALSE(list->free(memory[device]));
    }
    EXPECT_FALSE(list->unloadModule(*module));
  }
}

TEST(CUDADeviceList, EachThreadHasItsCurrentDevice) {
  auto list = makeList("0,1");
  ASSERT_FALSE(list->setDefaultDevice(1));
  int otherCurrent = -1, otherOwner = -1;
  std::thread other([&] {
    otherCurrent = list->currentDevice();
    Expected<void *> memory = list->allocate(64, false);
    ASSERT_TRUE(memory) << text(memory.error());
    otherOwner = list->ownerOf(reinterpret_cast<uintptr_t>(*memory));
    EXPECT_FALSE(list->free(*memory));
  });
  other.join();
  EXPECT_EQ(otherCurrent, 0) << "a new thread starts on device 0";
  EXPECT_EQ(otherOwner, 0);
  EXPECT_EQ(list->currentDevice(), 1);
  Expected<void *> memory = list->allocate(64, false);
  ASSERT_TRUE(memory) << text(memory.error());
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*memory)), 1);
  EXPECT_FALSE(list->free(*memory));
}

TEST(CUDADeviceList, CopiesBetweenDevicesArePeerCopies) {
  auto peerCopies = fake<unsigned (*)()>("fakeCudaPeerCopies");
  for (const Listed &listed : kLists) {
    SCOPED_TRACE(listed.devices);
    auto list = makeList(listed.devices);
    const size_t n = 1024;
    std::vector<uint32_t> pattern(n), back(n, 0);
    for (size_t i = 0; i < n; ++i)
      pattern[i] = uint32_t(i * 2654435761u);
    ASSERT_FALSE(list->setDefaultDevice(0));
    Expected<void *> stream = list->createStream();
    ASSERT_TRUE(stream) << text(stream.error());
    Expected<void *> from = list->allocate(n * 4, false);
    ASSERT_TRUE(from) << text(from.error());
    ASSERT_FALSE(list->copy(*from, pattern.data(), n * 4, *stream));
    ASSERT_FALSE(list->setDefaultDevice(1));
    Expected<void *> to = list->allocate(n * 4, false);
    ASSERT_TRUE(to) << text(to.error());

    unsigned before = peerCopies();
    // On device 0's stream (after its work), and on the default stream.
    ASSERT_FALSE(list->copy(*to, *from, n * 4, *stream));
    EXPECT_EQ(peerCopies(), before + 1) << "not copied device to device";
    ASSERT_FALSE(list->copy(back.data(), *to, n * 4, nullptr));
    EXPECT_EQ(back, pattern);
    ASSERT_FALSE(list->fill32(*to, 0, n, nullptr));
    ASSERT_FALSE(list->copy(*to, *from, n * 4, nullptr));
    EXPECT_EQ(peerCopies(), before + 2);
    ASSERT_FALSE(list->copy(back.data(), *to, n * 4, nullptr));
    EXPECT_EQ(back, pattern);

    // The source is placed against its device's allocations.
    Status past =
        list->copy(*to, static_cast<char *>(*from) + 8, n * 4, nullptr);
    EXPECT_EQ(past.kind(), ErrorKind::InvalidArgument) << text(past);
    EXPECT_EQ(text(past), "mgpuMemcpy's source (gpu.memcpy) of 4096 bytes at "
                          "offset 8 of a 4096-byte allocation (gpu.alloc) "
                          "reaches past its end");
    EXPECT_EQ(peerCopies(), before + 2);

    EXPECT_FALSE(list->free(*to));
    EXPECT_FALSE(list->free(*from));
    EXPECT_FALSE(list->destroyStream(*stream));
  }
}

TEST(CUDADeviceList, ALaunchRefusesAnotherDevicesMemory) {
  auto launches = fake<unsigned (*)()>("fakeCudaLaunches");
  for (const Listed &listed : kLists) {
    SCOPED_TRACE(listed.devices);
    auto list = makeList(listed.devices);
    ASSERT_FALSE(list->setDefaultDevice(1));
    Expected<void *> theirs = list->allocate(256, false);
    ASSERT_TRUE(theirs) << text(theirs.error());
    ASSERT_FALSE(list->setDefaultDevice(0));
    Expected<void *> ours = list->allocate(256, false);
    ASSERT_TRUE(ours) << text(ours.error());
    Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
    ASSERT_TRUE(module) << text(module.error());
    Expected<void *> function = list->getFunction(*module, "take_pointers");
    ASSERT_TRUE(function) << text(function.error());

    std::vector<float> host(16);
    void *first = *ours, *last = host.data();
    uint32_t scalar = 0;
    void *params[] = {&first, &scalar, &last};
    // Its own memory and host memory are fine.
    EXPECT_FALSE(launchAndWait(*list, *function, nullptr, params, 3));
    // Device 1's allocation, at its start or inside it, is not.
    unsigned before = launches();
    for (void *foreign :
         {*theirs, static_cast<void *>(static_cast<char *>(*theirs) + 100)}) {
      last = foreign;
      Status refused = list->launch(*function, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0,
                                    nullptr, params, 3);
      EXPECT_EQ(refused.kind(), ErrorKind::InvalidArgument) << text(refused);
      EXPECT_EQ(text(refused),
                "kernel 'take_pointers' argument 2 is memory of device 1 (its "
                "gpu.alloc), but the launch runs on device 0; copy it to "
                "device 0 first (gpu.memcpy)");
    }
    EXPECT_EQ(launches(), before) << "a refused launch reached the driver";
    // A 32-bit parameter is not an address, whatever it holds.
    last = host.data();
    scalar = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(*theirs));
    EXPECT_FALSE(launchAndWait(*list, *function, nullptr, params, 3));

    EXPECT_FALSE(list->unloadModule(*module));
    EXPECT_FALSE(list->free(*ours));
    EXPECT_FALSE(list->free(*theirs));
  }
}

// A driver before CUDA 12.4 does not tell parameter sizes: the launch goes
// to the driver unchecked, as it would without a list.
TEST(CUDADeviceList, WithoutParameterSizesLaunchesAreNotChecked) {
  setenv("FAKE_CUDA_NO_PARAM_INFO", "1", 1);
  struct Unset {
    ~Unset() { unsetenv("FAKE_CUDA_NO_PARAM_INFO"); }
  } unset;
  auto list = makeList("0,1");
  ASSERT_FALSE(list->setDefaultDevice(1));
  Expected<void *> theirs = list->allocate(256, false);
  ASSERT_TRUE(theirs) << text(theirs.error());
  ASSERT_FALSE(list->setDefaultDevice(0));
  Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(module) << text(module.error());
  Expected<void *> function = list->getFunction(*module, "take_pointers");
  ASSERT_TRUE(function) << text(function.error());
  void *pointer = *theirs;
  uint32_t scalar = 0;
  void *params[] = {&pointer, &scalar, &pointer};
  EXPECT_FALSE(launchAndWait(*list, *function, nullptr, params, 3));
  EXPECT_FALSE(list->free(*theirs));
}

TEST(CUDADeviceList, ADeviceOutsideTheListIsAnError) {
  auto list = makeList("0,1");
  Status past = list->setDefaultDevice(2);
  EXPECT_EQ(past.kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(text(past), "mgpuSetDefaultDevice(2): the program has 2 devices "
                        "(--device=0,1), numbered 0..1");
  EXPECT_TRUE(list->setDefaultDevice(-1));
  EXPECT_EQ(list->currentDevice(), 0);
  Expected<Runtime *> none = list->device(2);
  ASSERT_FALSE(none);
  EXPECT_NE(text(none.error())
                .find("device 2 is not in the program's "
                      "device list"),
            std::string::npos)
      << text(none.error());

  // A single device is device 0 of its own.
  std::unique_ptr<Runtime> single =
      kiln::cudart::makeDeviceRuntime(kiln::rt::DevicePlace{});
  EXPECT_FALSE(single->setDefaultDevice(0));
  Status other = single->setDefaultDevice(1);
  EXPECT_EQ(other.kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(text(other).find("which is device 0 of its own"), std::string::npos)
      << text(other);
}

TEST(CUDADeviceList, AnUnknownUUIDIsAnErrorAtInitialize) {
  auto list = makeList("1,GPU-12345678-1234-1234-1234-123456789abc");
  Status error = list->initialize();
  EXPECT_EQ(error.kind(), ErrorKind::InvalidArgument) << text(error);
  EXPECT_EQ(text(error),
            "device 1 (entry 'GPU-12345678-1234-1234-1234-123456789abc'): no "
            "CUDA device has UUID 'GPU-12345678-1234-1234-1234-123456789abc'; "
            "devices:\n"
            "  0: Fake GPU 0 (GPU-fa4ec0da-0000-0000-0000-000000000000)\n"
            "  1: Fake GPU 1 (GPU-fa4ec0da-0000-0000-0000-000000000001)");
  // A name or an index past the devices are errors at initialize too.
  EXPECT_EQ(text(makeList("quadro")->initialize()),
            "no CUDA device matches 'quadro'; devices:\n  0: Fake GPU 0\n  1: "
            "Fake GPU 1");
  EXPECT_EQ(text(makeList("0,7")->initialize()),
            "device 1 (entry '7'): no CUDA device has index 7 (2 devices: "
            "0..1)");
}

TEST(CUDADeviceList, AUUIDChoosesItsDevice) {
  auto lastDevice = fake<int (*)()>("fakeCudaLastLaunchDevice");
  // As formatUUID writes it, and as nvidia-smi does in capitals.
  auto list = makeList("fa4ec0da-0000-0000-0000-000000000001,"
                       "GPU-FA4EC0DA-0000-0000-0000-000000000000");
  ASSERT_FALSE(list->initialize()) << text(list->initialize());
  Expected<std::string> chip = list->deviceTarget();
  ASSERT_TRUE(chip) << text(chip.error());
  EXPECT_EQ(*chip, "sm_80");
  Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(module) << text(module.error());
  Expected<void *> function = list->getFunction(*module, "add_one");
  ASSERT_TRUE(function) << text(function.error());
  ASSERT_FALSE(launchAndWait(*list, *function, nullptr));
  EXPECT_EQ(lastDevice(), 1);
  ASSERT_FALSE(list->setDefaultDevice(1));
  chip = list->deviceTarget();
  ASSERT_TRUE(chip) << text(chip.error());
  EXPECT_EQ(*chip, "sm_90");
  ASSERT_FALSE(launchAndWait(*list, *function, nullptr));
  EXPECT_EQ(lastDevice(), 0);
  EXPECT_FALSE(list->unloadModule(*module));

  // Every device's UUID is listed.
  Expected<std::string> described = list->describeDevices();
  ASSERT_TRUE(described) << text(described.error());
  EXPECT_NE(described->find("   uuid: GPU-fa4ec0da-0000-0000-0000-"
                            "000000000001\n"),
            std::string::npos)
      << *described;
}

struct TimedLaunch {
  std::string kernel;
  int device;
  double us;
};

void collect(void *user, const char *kernel, int32_t device, double us) {
  static_cast<std::vector<TimedLaunch> *>(user)->push_back(
      {kernel, device, us});
}

TEST(CUDADeviceList, TimingNamesTheDevice) {
  auto list = makeList("0,1", /*timing=*/true);
  std::vector<TimedLaunch> times;
  ASSERT_FALSE(list->setDeviceTimingCallback(collect, &times));
  Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(module) << text(module.error());
  Expected<void *> function = list->getFunction(*module, "add_one");
  ASSERT_TRUE(function) << text(function.error());
  testing::internal::CaptureStderr();
  Status first = launchAndWait(*list, *function, nullptr);
  ASSERT_FALSE(list->setDefaultDevice(1));
  Status second = launchAndWait(*list, *function, nullptr);
  std::string printed = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(first) << text(first);
  ASSERT_FALSE(second) << text(second);
  ASSERT_EQ(times.size(), 2u);
  for (int device = 0; device < 2; ++device) {
    EXPECT_EQ(times[device].kernel, "add_one");
    EXPECT_EQ(times[device].device, device);
    EXPECT_EQ(times[device].us, 500.0); // The stand-in's cuEventElapsedTime.
  }
  // The printed line ends in the device.
  size_t line = printed.find("kiln-timing kernel=add_one gpu_us=500.000 ");
  ASSERT_NE(line, std::string::npos) << printed;
  EXPECT_NE(printed.find(" device=0\n", line), std::string::npos) << printed;
  EXPECT_NE(printed.find(" device=1\n", line), std::string::npos) << printed;
  EXPECT_FALSE(list->setDeviceTimingCallback(nullptr, nullptr));
  EXPECT_FALSE(list->unloadModule(*module));
}

/// What the timing callback of TwoDevicesDoNotWaitForEachOther shares with
/// the test.
struct Blocking {
  std::atomic<bool> inside{false};
  std::atomic<bool> otherDone{false};
  bool sawOtherDone = false;
};

void blockOnDeviceZero(void *user, const char *, int32_t device, double) {
  auto *blocking = static_cast<Blocking *>(user);
  if (device != 0)
    return;
  // Device 0's lock is held here: device 1 must go on meanwhile.
  blocking->inside = true;
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!blocking->otherDone && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  blocking->sawOtherDone = blocking->otherDone;
}

TEST(CUDADeviceList, TwoDevicesDoNotWaitForEachOther) {
  for (const Listed &listed : kLists) {
    SCOPED_TRACE(listed.devices);
    auto list = makeList(listed.devices);
    Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
    ASSERT_TRUE(module) << text(module.error());
    Expected<void *> function = list->getFunction(*module, "add_one");
    ASSERT_TRUE(function) << text(function.error());
    ASSERT_FALSE(list->initialize());
    Blocking blocking;
    ASSERT_FALSE(list->setDeviceTimingCallback(blockOnDeviceZero, &blocking));
    std::thread other([&] {
      while (!blocking.inside)
        std::this_thread::yield();
      // While device 0's launch holds its lock: a whole round on device 1.
      EXPECT_FALSE(list->setDefaultDevice(1));
      Expected<void *> memory = list->allocate(64, false);
      EXPECT_TRUE(memory);
      Expected<void *> stream = list->createStream();
      EXPECT_TRUE(stream);
      if (memory && stream) {
        EXPECT_FALSE(list->fill32(*memory, 1, 16, *stream));
        EXPECT_FALSE(launchAndWait(*list, *function, *stream));
        EXPECT_FALSE(list->destroyStream(*stream));
        EXPECT_FALSE(list->free(*memory));
      }
      blocking.otherDone = true;
    });
    Status launched = launchAndWait(*list, *function, nullptr);
    other.join();
    EXPECT_FALSE(launched) << text(launched);
    EXPECT_TRUE(blocking.sawOtherDone) << "device 1 waited for device 0's lock";
    EXPECT_FALSE(list->setDeviceTimingCallback(nullptr, nullptr));
    EXPECT_FALSE(list->unloadModule(*module));
  }
}

// Host memory is registered for every context; any device may undo it.
TEST(CUDADeviceList, HostRegistrationsServeEveryDevice) {
  auto isRegistered = fake<int (*)(void *)>("fakeCudaIsRegistered");
  auto list = makeList("0,1");
  std::vector<char> buffer(4 * 4096);
  ASSERT_FALSE(list->hostRegister(buffer.data(), buffer.size()));
  EXPECT_TRUE(isRegistered(buffer.data()));
  ASSERT_FALSE(list->setDefaultDevice(1));
  // Device 1 counts the registration it finds rather than taking it for
  // someone else's, and undoes device 0's.
  struct {
    void *allocated, *aligned;
    int64_t offset, size, stride;
  } memref = {buffer.data(), buffer.data(), 0, 4096, 1};
  ASSERT_FALSE(list->hostRegisterMemRef(1, &memref, 1));
  ASSERT_FALSE(list->hostUnregister(buffer.data()));
  EXPECT_TRUE(isRegistered(buffer.data())) << "the memref still needs it";
  ASSERT_FALSE(list->hostUnregisterMemRef(1, &memref, 1));
  EXPECT_FALSE(isRegistered(buffer.data()));
}

TEST(CUDADeviceList, AListReleasesWhatItsDevicesHold) {
  auto liveStreams = fake<int (*)()>("fakeCudaLiveStreams");
  auto liveModules = fake<int (*)()>("fakeCudaLiveModules");
  auto liveAllocations = fake<int (*)()>("fakeCudaLiveAllocations");
  int streams = liveStreams(), modules = liveModules(),
      allocations = liveAllocations();
  {
    auto list = makeList("0,0");
    Expected<void *> module = list->loadModule(kPTX, std::strlen(kPTX));
    ASSERT_TRUE(module) << text(module.error());
    Expected<void *> function = list->getFunction(*module, "add_one");
    ASSERT_TRUE(function) << text(function.error());
    for (int device = 0; device < 2; ++device) {
      ASSERT_FALSE(list->setDefaultDevice(device));
      Expected<void *> stream = list->createStream();
      ASSERT_TRUE(stream) << text(stream.error());
      ASSERT_FALSE(launchAndWait(*list, *function, *stream));
      // One stream destroyed (kept for reuse), one left alive.
      ASSERT_FALSE(list->destroyStream(*stream));
      ASSERT_TRUE(list->createStream());
      ASSERT_TRUE(list->createStream());
      ASSERT_TRUE(list->allocate(64, device == 1));
    }
    EXPECT_EQ(liveModules(), modules + 2);
    EXPECT_EQ(liveAllocations(), allocations + 2);
    EXPECT_GT(liveStreams(), streams);
  }
  EXPECT_EQ(liveStreams(), streams);
  EXPECT_EQ(liveModules(), modules);
  EXPECT_EQ(liveAllocations(), allocations);
}

} // namespace
