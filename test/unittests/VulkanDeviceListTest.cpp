//===- VulkanDeviceListTest.cpp - Several Vulkan devices in one process ---===//
//
// An rt::DeviceList over the Vulkan runtime's single devices
// (vkrt::makeDeviceRuntime), as kilnVulkanRuntime() is, built here with
// lists of its own: "0,0" opens the one physical device (lavapipe in CI)
// twice, as two independent devices. Covers each thread's current device,
// memory that belongs to one device, copies between devices, launches that
// pass another device's memory, device entries by UUID, timing by device,
// and two threads launching on two devices at once. Skips when there is no
// Vulkan device.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/DeviceList.h"
#include "../../lib/Runtime/Vulkan/DeviceRuntime.h"
#include "kiln/Contract/Container.h"
#include "kiln/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace kiln;
using namespace kiln::container;

namespace {

const uint32_t kIncrement[] = {
#include "increment.inc"
};

/// A container of the increment kernel ("main": data[workgroup] += 1,
/// workgroup size 1, one rank-1 int memref).
std::vector<uint8_t> incrementModule() {
  ArgInfo a;
  a.kind = ArgKind::MemRef;
  a.size = 4;
  a.rank = 1;
  a.binding = 0;
  a.pushConstantOffset = kNoPushConstant;
  KernelInfo k;
  k.name = "main";
  k.workgroupSize[0] = 1;
  k.args.push_back(a);
  ModuleInfo m;
  m.kernels.push_back(k);
  m.spirv.assign(std::begin(kIncrement), std::end(kIncrement));
  return write(m);
}

/// A rank-1 memref descriptor, as gpu-to-llvm passes it.
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset, size, stride;
  void *params[5] = {&allocated, &aligned, &offset, &size, &stride};
};

/// A list of the Vulkan runtime's devices, `devices` as --device gives it.
std::unique_ptr<rt::DeviceList> makeList(const std::string &devices,
                                         rt::Options options = {}) {
  auto list = std::make_unique<rt::DeviceList>("vulkan", "KILN_VULKAN_DEVICE",
                                               vkrt::makeDeviceRuntime);
  options.device = devices;
  rt::Status configured = list->configure(options);
  EXPECT_FALSE(configured) << configured.message();
  return list;
}

/// Whether a Vulkan device opens (asked once).
bool haveDevice() {
  static int have = -1;
  if (have < 0)
    have = !makeList("")->initialize();
  return have == 1;
}

#define REQUIRE_DEVICE()                                                       \
  if (!haveDevice())                                                           \
  GTEST_SKIP() << "no Vulkan device opens"

/// The increment kernel loaded through `list` (on the calling thread's
/// device; other devices load it at their first launch).
void *incrementKernel(rt::DeviceList &list) {
  std::vector<uint8_t> bytes = incrementModule();
  rt::Expected<void *> module = list.loadModule(bytes.data(), bytes.size());
  EXPECT_TRUE(module) << module.error().message();
  if (!module)
    return nullptr;
  rt::Expected<void *> fn = list.getFunction(*module, "main");
  EXPECT_TRUE(fn) << fn.error().message();
  return fn ? *fn : nullptr;
}

/// Launches `fn` over `m` (one workgroup per element) on `stream` of the
/// calling thread's device and waits for it.
rt::Status increment(rt::DeviceList &list, void *fn, MemRef1D &m,
                     void *stream = nullptr) {
  KILN_TRY(list.launch(fn, {m.size, 1, 1}, {1, 1, 1}, 0, stream, m.params, 5));
  return list.synchronize(stream);
}

/// The first "  uuid: " line of `--list-devices`' text ("" when none).
std::string firstUUID(const std::string &devices) {
  const char key[] = "  uuid: ";
  size_t at = devices.find(key);
  if (at == std::string::npos)
    return "";
  at += std::strlen(key);
  return devices.substr(at, devices.find('\n', at) - at);
}

TEST(VulkanDeviceList, TwoEntriesOpenTwoIndependentDevices) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  ASSERT_FALSE(list->initialize());
  EXPECT_EQ(list->deviceCount(), 2);
  rt::Expected<rt::Runtime *> first = list->device(0);
  rt::Expected<rt::Runtime *> second = list->device(1);
  ASSERT_TRUE(first && second);
  EXPECT_NE(*first, *second);

  // Memory of each device, filled and read back through the list, which
  // sends each call to the device the memory belongs to.
  ASSERT_FALSE(list->setDefaultDevice(0));
  rt::Expected<void *> onA = list->allocate(256, /*hostShared=*/false);
  ASSERT_FALSE(list->setDefaultDevice(1));
  rt::Expected<void *> onB = list->allocate(256, /*hostShared=*/false);
  ASSERT_TRUE(onA && onB);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*onA)), 0);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*onB)), 1);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*onB) + 255), 1);
  ASSERT_FALSE(list->fill32(*onA, 0x11111111u, 64, nullptr));
  ASSERT_FALSE(list->fill32(*onB, 0x22222222u, 64, nullptr));
  std::vector<uint32_t> back(64, 0);
  ASSERT_FALSE(list->copy(back.data(), *onA, 256, nullptr));
  EXPECT_EQ(back[0], 0x11111111u);
  EXPECT_EQ(back[63], 0x11111111u);
  ASSERT_FALSE(list->copy(back.data(), *onB, 256, nullptr));
  EXPECT_EQ(back[0], 0x22222222u);

  // Each device refuses the other's memory as its own: freeing one leaves
  // the other whole.
  EXPECT_TRUE((*first)->free(*onB));
  ASSERT_FALSE(list->free(*onA));
  ASSERT_FALSE(list->copy(back.data(), *onB, 256, nullptr));
  EXPECT_EQ(back[63], 0x22222222u);
  ASSERT_FALSE(list->free(*onB));
}

TEST(VulkanDeviceList, TheCurrentDeviceIsEachThreads) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  EXPECT_EQ(list->currentDevice(), 0);
  ASSERT_FALSE(list->setDefaultDevice(1));
  EXPECT_EQ(list->currentDevice(), 1);
  int other = -1;
  void *otherMemory = nullptr;
  std::thread thread([&] {
    other = list->currentDevice();
    rt::Expected<void *> memory = list->allocate(64, false);
    if (memory)
      otherMemory = *memory;
  });
  thread.join();
  EXPECT_EQ(other, 0);
  ASSERT_NE(otherMemory, nullptr);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(otherMemory)), 0);
  rt::Expected<void *> mine = list->allocate(64, false);
  ASSERT_TRUE(mine);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*mine)), 1);
  EXPECT_EQ(list->currentDevice(), 1);
  ASSERT_FALSE(list->free(otherMemory));
  ASSERT_FALSE(list->free(*mine));
}

TEST(VulkanDeviceList, CopiesGoFromOneDeviceToAnother) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  const size_t n = 4096;
  std::vector<uint32_t> pattern(n), back(n, 0);
  for (size_t i = 0; i < n; ++i)
    pattern[i] = uint32_t(i * 2654435761u);
  ASSERT_FALSE(list->setDefaultDevice(0));
  rt::Expected<void *> a = list->allocate(n * 4, false);
  ASSERT_FALSE(list->setDefaultDevice(1));
  rt::Expected<void *> b = list->allocate(n * 4, false);
  ASSERT_TRUE(a && b);
  ASSERT_FALSE(list->copy(*a, pattern.data(), n * 4, nullptr));
  ASSERT_FALSE(list->fill32(*b, 0, n, nullptr));
  // Device 0's memory to device 1's, the calling thread on device 1.
  rt::Status copied = list->copy(*b, *a, n * 4, nullptr);
  ASSERT_FALSE(copied) << copied.message();
  ASSERT_FALSE(list->copy(back.data(), *b, n * 4, nullptr));
  EXPECT_EQ(back, pattern);
  // And back, offset, on a stream of device 0.
  ASSERT_FALSE(list->setDefaultDevice(0));
  rt::Expected<void *> stream = list->createStream();
  ASSERT_TRUE(stream);
  ASSERT_FALSE(list->fill32(*a, 0, n, nullptr));
  ASSERT_FALSE(list->copy(static_cast<char *>(*a) + 64,
                          static_cast<char *>(*b) + 64, n * 4 - 128, *stream));
  ASSERT_FALSE(list->synchronize(*stream));
  ASSERT_FALSE(list->copy(back.data(), *a, n * 4, nullptr));
  EXPECT_EQ(back[0], 0u);
  EXPECT_EQ(back[16], pattern[16]);
  EXPECT_EQ(back[n - 17], pattern[n - 17]);
  EXPECT_EQ(back[n - 1], 0u);
  ASSERT_FALSE(list->destroyStream(*stream));
  ASSERT_FALSE(list->free(*a));
  ASSERT_FALSE(list->free(*b));
}

TEST(VulkanDeviceList, ALaunchRefusesAnotherDevicesMemory) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  void *fn = incrementKernel(*list);
  ASSERT_NE(fn, nullptr);
  ASSERT_FALSE(list->setDefaultDevice(1));
  rt::Expected<void *> onB = list->allocate(4 * sizeof(int32_t), false);
  ASSERT_TRUE(onB);
  ASSERT_FALSE(list->fill32(*onB, 5, 4, nullptr));
  // On device 1, its own memory runs (the module loads there now).
  MemRef1D m{*onB, *onB, 0, 4, 1};
  rt::Status own = increment(*list, fn, m);
  ASSERT_FALSE(own) << own.message();
  std::vector<int32_t> back(4, 0);
  ASSERT_FALSE(list->copy(back.data(), *onB, 16, nullptr));
  EXPECT_EQ(back, std::vector<int32_t>(4, 6));

  // On device 0, device 1's memory is refused, naming the kernel, the
  // argument and both devices; nothing runs.
  ASSERT_FALSE(list->setDefaultDevice(0));
  rt::Status refused =
      list->launch(fn, {4, 1, 1}, {1, 1, 1}, 0, nullptr, m.params, 5);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused.kind(), rt::ErrorKind::InvalidArgument);
  EXPECT_NE(refused.message().find("kernel 'main' argument 0 is memory of "
                                   "device 1"),
            std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find("the launch runs on device 0"),
            std::string::npos)
      << refused.message();
  // A view into the middle of it is refused too.
  MemRef1D inside{*onB, static_cast<int32_t *>(*onB) + 2, 0, 2, 1};
  EXPECT_TRUE(
      list->launch(fn, {2, 1, 1}, {1, 1, 1}, 0, nullptr, inside.params, 5));
  ASSERT_FALSE(list->synchronize(nullptr));
  ASSERT_FALSE(list->copy(back.data(), *onB, 16, nullptr));
  EXPECT_EQ(back, std::vector<int32_t>(4, 6));
  ASSERT_FALSE(list->free(*onB));
}

TEST(VulkanDeviceList, HostMemoryRunsOnEachDevice) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  void *fn = incrementKernel(*list);
  ASSERT_NE(fn, nullptr);
  std::vector<int32_t> host = {1, 2, 3, 4};
  MemRef1D m{host.data(), host.data(), 0, 4, 1};
  for (int device : {0, 1, 0, 1}) {
    ASSERT_FALSE(list->setDefaultDevice(device));
    rt::Status ran = increment(*list, fn, m);
    ASSERT_FALSE(ran) << "device " << device << ": " << ran.message();
  }
  EXPECT_EQ(host, (std::vector<int32_t>{5, 6, 7, 8}));
}

TEST(VulkanDeviceList, ADeviceOutsideTheListIsAnError) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  rt::Status past = list->setDefaultDevice(2);
  ASSERT_TRUE(past);
  EXPECT_EQ(past.kind(), rt::ErrorKind::InvalidArgument);
  EXPECT_NE(past.message().find("mgpuSetDefaultDevice(2)"), std::string::npos)
      << past.message();
  EXPECT_NE(past.message().find("2 devices (--device=0,0)"), std::string::npos)
      << past.message();
  EXPECT_TRUE(list->setDefaultDevice(-1));
  EXPECT_EQ(list->currentDevice(), 0);

  // A single device's runtime has device 0 only.
  std::unique_ptr<rt::Runtime> single =
      vkrt::makeDeviceRuntime(rt::DevicePlace());
  EXPECT_FALSE(single->setDefaultDevice(0));
  rt::Status other = single->setDefaultDevice(1);
  ASSERT_TRUE(other);
  EXPECT_NE(other.message().find("its only device is 0"), std::string::npos)
      << other.message();
}

TEST(VulkanDeviceList, EntriesMayBeUUIDs) {
  REQUIRE_DEVICE();
  rt::Expected<std::string> devices = makeList("")->describeDevices();
  ASSERT_TRUE(devices) << devices.error().message();
  std::string uuid = firstUUID(*devices);
  ASSERT_EQ(uuid.size(), 36u) << *devices;

  // An unknown UUID is an error when the list opens, naming it and listing
  // the devices with theirs.
  const std::string zero = "00000000-0000-0000-0000-000000000000";
  rt::Status unknown = makeList(zero)->initialize();
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown.kind(), rt::ErrorKind::InvalidArgument);
  EXPECT_NE(unknown.message().find("no Vulkan device has UUID '" + zero + "'"),
            std::string::npos)
      << unknown.message();
  EXPECT_NE(unknown.message().find("0: "), std::string::npos)
      << unknown.message();
  EXPECT_NE(unknown.message().find("(uuid " + uuid + ")"), std::string::npos)
      << unknown.message();
  // The same as the second entry: the error says which entry.
  rt::Status second = makeList("0," + zero)->initialize();
  ASSERT_TRUE(second);
  EXPECT_NE(second.message().find("device 1 (entry '" + zero + "')"),
            std::string::npos)
      << second.message();

  // The device's own UUID selects it, as --list-devices prints it, in
  // capitals without dashes, and with nvidia-smi's prefix.
  std::string upper;
  for (char c : uuid)
    if (c != '-')
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string &entry : {uuid, upper, "GPU-" + uuid}) {
    auto list = makeList(entry + ",0");
    rt::Status opened = list->initialize();
    EXPECT_FALSE(opened) << entry << ": " << opened.message();
  }
}

TEST(VulkanDeviceList, ThreeEntriesWork) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0,0");
  ASSERT_FALSE(list->initialize());
  EXPECT_EQ(list->deviceCount(), 3);
  void *fn = incrementKernel(*list);
  ASSERT_NE(fn, nullptr);
  std::vector<int32_t> host(3, 0);
  MemRef1D m{host.data(), host.data(), 0, 3, 1};
  for (int device = 0; device < 3; ++device) {
    ASSERT_FALSE(list->setDefaultDevice(device));
    rt::Expected<void *> memory = list->allocate(16, false);
    ASSERT_TRUE(memory);
    EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*memory)), device);
    ASSERT_FALSE(list->free(*memory));
    ASSERT_FALSE(increment(*list, fn, m));
  }
  EXPECT_EQ(host, std::vector<int32_t>(3, 3));
}

struct TimedLaunch {
  std::string kernel;
  int32_t device;
  double us;
};

void collect(void *user, const char *kernel, int32_t device, double us) {
  static_cast<std::vector<TimedLaunch> *>(user)->push_back(
      {kernel, device, us});
}

TEST(VulkanDeviceList, TimingSaysWhichDeviceRanEachLaunch) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  void *fn = incrementKernel(*list);
  ASSERT_NE(fn, nullptr);
  std::vector<TimedLaunch> times;
  ASSERT_FALSE(list->setDeviceTimingCallback(collect, &times));
  std::vector<int32_t> host(1, 0);
  MemRef1D m{host.data(), host.data(), 0, 1, 1};
  for (int device : {1, 0, 1}) {
    ASSERT_FALSE(list->setDefaultDevice(device));
    ASSERT_FALSE(increment(*list, fn, m));
  }
  ASSERT_FALSE(list->setDeviceTimingCallback(nullptr, nullptr));
  ASSERT_FALSE(increment(*list, fn, m));
  EXPECT_EQ(host[0], 4);
  ASSERT_EQ(times.size(), 3u);
  EXPECT_EQ(times[0].device, 1);
  EXPECT_EQ(times[1].device, 0);
  EXPECT_EQ(times[2].device, 1);
  for (const TimedLaunch &t : times) {
    EXPECT_EQ(t.kernel, "main");
    EXPECT_GT(t.us, 0.0); // lavapipe and GPUs have compute timestamps
  }
}

TEST(VulkanDeviceList, TheTimingLineNamesTheDevice) {
  REQUIRE_DEVICE();
  rt::Options options;
  options.timing = true;
  auto list = makeList("0,0", options);
  void *fn = incrementKernel(*list);
  ASSERT_NE(fn, nullptr);
  std::vector<int32_t> host(1, 0);
  MemRef1D m{host.data(), host.data(), 0, 1, 1};
  ASSERT_FALSE(list->setDefaultDevice(1));
  ::testing::internal::CaptureStderr();
  rt::Status ran = increment(*list, fn, m);
  std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_FALSE(ran) << ran.message();
  EXPECT_EQ(printed.rfind("kiln-timing kernel=main gpu_us=", 0), 0u) << printed;
  EXPECT_NE(printed.find(" host_us="), std::string::npos) << printed;
  EXPECT_NE(printed.find(" device=1\n"), std::string::npos) << printed;
}

TEST(VulkanDeviceList, TwoThreadsLaunchOnTwoDevicesAtOnce) {
  REQUIRE_DEVICE();
  auto list = makeList("0,0");
  ASSERT_FALSE(list->initialize());
  void *fn = incrementKernel(*list);
  ASSERT_NE(fn, nullptr);
  const int launches = 200;
  std::vector<int32_t> hosts[2] = {std::vector<int32_t>(8, 0),
                                   std::vector<int32_t>(8, 100)};
  rt::Status results[2];
  std::vector<std::thread> threads;
  for (int device = 0; device < 2; ++device)
    threads.emplace_back([&, device] {
      results[device] = [&]() -> rt::Status {
        KILN_TRY(list->setDefaultDevice(device));
        KILN_ASSIGN_OR_RETURN(void *stream, list->createStream());
        std::vector<int32_t> &host = hosts[device];
        MemRef1D m{host.data(), host.data(), 0, int64_t(host.size()), 1};
        for (int i = 0; i < launches; ++i)
          KILN_TRY(increment(*list, fn, m, stream));
        return list->destroyStream(stream);
      }();
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_FALSE(results[0]) << results[0].message();
  EXPECT_FALSE(results[1]) << results[1].message();
  EXPECT_EQ(hosts[0], std::vector<int32_t>(8, launches));
  EXPECT_EQ(hosts[1], std::vector<int32_t>(8, 100 + launches));
}

} // namespace
