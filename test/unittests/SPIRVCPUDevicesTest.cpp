//===- SPIRVCPUDevicesTest.cpp - Several spirv-cpu devices in a process ---===//
//
// The spirv-cpu runtime's devices as the process's runtime composes them: an
// rt::DeviceList over the single-device runtime (makeDevice), here made per
// test with a list of its own (--device=0,0: the host CPU twice, two
// independent devices). Kernels are written by hand against
// kiln/Contract/SPIRVCPUABI.h, as in SPIRVCPURuntimeTest.cpp, whose main()
// sets KILN_CPU_THREADS=3; these lists ask for their worker threads
// themselves.
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/Container.h"
#include "kiln/Contract/SPIRVCPUABI.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"

#include "DeviceList.h"
#include "DeviceRuntime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace kiln;
using namespace kiln::spirvcpu;
using container::ArgInfo;
using container::ArgKind;

namespace {

/// A list of spirv-cpu devices as the process's runtime makes it, with
/// `devices` as --device and `threads` worker threads for them all.
std::unique_ptr<rt::DeviceList> makeList(const std::string &devices,
                                         const char *threads = "4") {
  auto list = std::make_unique<rt::DeviceList>(
      "spirv-cpu", "KILN_SPIRV_CPU_DEVICE", makeDevice);
  rt::Options options;
  options.device = devices;
  options.threads = threads;
  EXPECT_FALSE(list->configure(options));
  return list;
}

/// Device `index` of `list` as the spirv-cpu runtime it is.
SPIRVCPURuntime &deviceOf(rt::DeviceList &list, int index) {
  rt::Expected<rt::Runtime *> device = list.device(index);
  EXPECT_TRUE(bool(device)) << device.error().message();
  return *static_cast<SPIRVCPURuntime *>(*device);
}

const ResourceDesc kOneBuffer[] = {
    {ResourceKind::StorageBuffer, 0, 0, 0, "argument 0 (memref<?xi32>)"}};

/// out[i] = i + 1 for each invocation i.
void countKernel(Invocation *inv) {
  static_cast<uint32_t *>(inv->resources[0])[inv->globalInvocationId[0]] =
      inv->globalInvocationId[0] + 1;
}
const KernelDesc kCount = {
    kABIVersion,     0,          0,       0,      1, 0, 0, 0,
    "devices_count", kOneBuffer, nullptr, nullptr};

/// A container with one kernel (`desc`, workgroup size 1, one memref<?xi32>
/// argument unless `noArgs`), registered under its SPIR-V's hash (`seed`
/// makes it unique).
std::vector<uint8_t> makeContainer(const KernelDesc &desc, KernelFn fn,
                                   uint32_t seed, bool noArgs = false) {
  container::ModuleInfo m;
  m.indexBits = 32;
  m.spirv = {container::kSPIRVMagic, 0x00010500, seed, 16, 0};
  container::KernelInfo info;
  info.name = desc.name;
  info.workgroupSize[0] = info.workgroupSize[1] = info.workgroupSize[2] = 1;
  if (!noArgs) {
    ArgInfo a;
    a.kind = ArgKind::MemRef;
    a.size = 4;
    a.rank = 1;
    a.binding = 0;
    info.args.push_back(a);
  }
  m.kernels.push_back(info);
  __kiln_spirv_cpu_register(hashSPIRV(m.spirv.data(), m.spirv.size()), &desc,
                            fn);
  return container::write(m);
}

/// Kernel `desc` of a module loaded through `runtime`.
void *loadKernel(rt::Runtime &runtime, const KernelDesc &desc, KernelFn fn,
                 uint32_t seed, bool noArgs = false) {
  std::vector<uint8_t> bytes = makeContainer(desc, fn, seed, noArgs);
  rt::Expected<void *> module = runtime.loadModule(bytes.data(), bytes.size());
  EXPECT_TRUE(bool(module)) << module.error().message();
  if (!module)
    return nullptr;
  rt::Expected<void *> function = runtime.getFunction(*module, desc.name);
  EXPECT_TRUE(bool(function)) << function.error().message();
  return function ? *function : nullptr;
}

/// A rank-1 memref's expanded parameters over `count` elements at `data`.
struct MemRef {
  void *allocated, *aligned;
  int64_t offset = 0, size, stride = 1;
  std::vector<void *> params;

  MemRef(void *data, int64_t count)
      : allocated(data), aligned(data), size(count) {
    params = {&allocated, &aligned, &offset, &size, &stride};
  }
};

/// Launches `function` over `count` workgroups with `data` as its memref.
rt::Status launchOver(rt::Runtime &runtime, void *function, void *data,
                      int64_t count, void *stream = nullptr) {
  MemRef m(data, count);
  return runtime.launch(function, {count, 1, 1}, {1, 1, 1}, 0, stream,
                        m.params.data(), m.params.size());
}

/// Sets the calling thread's current device of `list` back to 0 on exit.
struct CurrentDevice {
  rt::DeviceList &list;
  explicit CurrentDevice(rt::DeviceList &list, int index) : list(list) {
    EXPECT_FALSE(list.setDefaultDevice(index));
  }
  ~CurrentDevice() { EXPECT_FALSE(list.setDefaultDevice(0)); }
};

//===----------------------------------------------------------------------===//
// Devices and entries
//===----------------------------------------------------------------------===//

/// "0,0" is two devices, each with its own units and its own share of the
/// workers (4 threads among 2 devices: 2 each).
TEST(SPIRVCPUDevices, TheHostListedTwiceIsTwoIndependentDevices) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0");
  ASSERT_FALSE(list->initialize());
  EXPECT_EQ(list->deviceCount(), 2);
  SPIRVCPURuntime &first = deviceOf(*list, 0), &second = deviceOf(*list, 1);
  ASSERT_NE(&first, &second);
  EXPECT_EQ(first.devicePlace().index, 0);
  EXPECT_EQ(second.devicePlace().index, 1);
  EXPECT_EQ(second.devicePlace().count, 2);

  rt::Expected<std::string> text = second.describeDevices();
  ASSERT_TRUE(bool(text)) << text.error().message();
  EXPECT_NE(text->find("worker threads: 2 (as the program asked; this "
                       "device's share of 4 among 2 devices)"),
            std::string::npos)
      << *text;
  text = list->describeDevices();
  ASSERT_TRUE(bool(text)) << text.error().message();
  EXPECT_NE(text->find("  type: CPU (spirv-cpu: kernels compiled to host "
                       "code)\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("worker threads: 2 ("), std::string::npos) << *text;

  // A launch on each device runs on that device's workers and counts
  // there; the module loads on device 1 at its first launch there.
  void *f = loadKernel(*list, kCount, countKernel, 1000);
  std::vector<uint32_t> a(8), b(8);
  ASSERT_FALSE(launchOver(*list, f, a.data(), 8));
  {
    CurrentDevice on(*list, 1);
    ASSERT_FALSE(launchOver(*list, f, b.data(), 8));
    ASSERT_FALSE(launchOver(*list, f, b.data(), 8));
  }
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(a[i], i + 1);
    EXPECT_EQ(b[i], i + 1);
  }
  KilnSpirvCpuStats s0 = first.stats(), s1 = second.stats();
  EXPECT_EQ(s0.launches, 1u);
  EXPECT_EQ(s1.launches, 2u);
  EXPECT_EQ(s0.threads, 2u);
  EXPECT_EQ(s1.threads, 2u);
  EXPECT_GE(s1.registeredKernels, 1u);
}

/// Fewer threads than devices: each still gets one.
TEST(SPIRVCPUDevices, EveryDeviceHasAtLeastOneWorker) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,cpu,0", "2");
  ASSERT_FALSE(list->initialize());
  void *f = loadKernel(*list, kCount, countKernel, 1001);
  for (int i = 0; i < 3; ++i) {
    CurrentDevice on(*list, i);
    std::vector<uint32_t> out(4);
    ASSERT_FALSE(launchOver(*list, f, out.data(), 4));
    EXPECT_EQ(out[3], 4u);
    EXPECT_EQ(deviceOf(*list, i).stats().threads, 1u);
  }
}

/// Entries name the host CPU ("", "0", "cpu", a part of its model name);
/// any other is an error at initialize naming the entry and the device.
TEST(SPIRVCPUDevices, EntriesNameTheHostCPU) {
  std::string model = cpuModel();
  ASSERT_FALSE(model.empty());
  for (std::string entry :
       {std::string("0"), std::string("CPU"),
        model.substr(0, std::min<size_t>(model.size(), 5)), model}) {
    std::unique_ptr<rt::DeviceList> list = makeList(entry);
    EXPECT_FALSE(list->initialize()) << entry;
  }

  std::unique_ptr<rt::DeviceList> list = makeList("0,1");
  rt::Status s = list->initialize();
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(),
            "device 1 (entry '1'): spirv-cpu device index 1 is out of range; "
            "the spirv-cpu runtime has one device, the host CPU:\n  0: " +
                model);

  list = makeList("0,GPU-12345678-9abc-def0-1234-56789abcdef0");
  s = list->initialize();
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("no spirv-cpu device has UUID "
                             "'GPU-12345678-9abc-def0-1234-56789abcdef0'; "
                             "the spirv-cpu runtime has one device, the host "
                             "CPU, which has no UUID:\n  0: " +
                             model),
            std::string::npos)
      << s.message();

  list = makeList("no-such-processor");
  s = list->initialize();
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("no spirv-cpu device named 'no-such-processor'"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("0: " + model), std::string::npos);
}

/// A single device stands alone too: it is device 0 of its own, and its
/// entry is checked at configure, initialize and launch.
TEST(SPIRVCPUDevices, ASingleDeviceRefusesAnotherIndexAndABadEntry) {
  SPIRVCPURuntime alone;
  EXPECT_FALSE(alone.setDefaultDevice(0));
  rt::Status s = alone.setDefaultDevice(1);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuSetDefaultDevice(1) on a single spirv-cpu "
                             "device"),
            std::string::npos)
      << s.message();
  rt::Options options;
  options.device = "2";
  EXPECT_TRUE(alone.configure(options));
  s = alone.initialize();
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("spirv-cpu device index 2 is out of range"),
            std::string::npos)
      << s.message();
  options.device = "0";
  EXPECT_FALSE(alone.configure(options));
  EXPECT_FALSE(alone.initialize());
}

/// An index past the list is an error naming the list.
TEST(SPIRVCPUDevices, AnIndexPastTheListIsAnError) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0");
  for (int32_t index : {2, -1}) {
    rt::Status s = list->setDefaultDevice(index);
    ASSERT_TRUE(s) << index;
    EXPECT_NE(s.message().find("the program has 2 devices (--device=0,0), "
                               "numbered 0..1"),
              std::string::npos)
        << s.message();
  }
  EXPECT_EQ(list->currentDevice(), 0);
  EXPECT_FALSE(bool(list->device(2)));
}

//===----------------------------------------------------------------------===//
// Current devices, memory, launches
//===----------------------------------------------------------------------===//

/// Each thread has its own current device; allocations belong to the
/// device current at their making.
TEST(SPIRVCPUDevices, EachThreadHasItsCurrentDevice) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0");
  CurrentDevice on(*list, 1);
  EXPECT_EQ(list->currentDevice(), 1);
  rt::Expected<void *> mine = list->allocate(64, false);
  ASSERT_TRUE(bool(mine));
  void *theirs = nullptr;
  int theirDevice = -1;
  std::thread other([&] {
    theirDevice = list->currentDevice();
    rt::Expected<void *> p = list->allocate(64, false);
    if (p)
      theirs = *p;
  });
  other.join();
  EXPECT_EQ(theirDevice, 0);
  ASSERT_NE(theirs, nullptr);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(*mine)), 1);
  EXPECT_EQ(list->ownerOf(reinterpret_cast<uintptr_t>(theirs)), 0);
  EXPECT_EQ(list->currentDevice(), 1);
  EXPECT_FALSE(list->free(*mine));
  EXPECT_FALSE(list->free(theirs));
}

/// A copy from device 0's memory to device 1's goes through the list (a
/// peer copy: both are host memory), placed against both devices'
/// allocations.
TEST(SPIRVCPUDevices, CopiesBetweenDevices) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0");
  rt::Expected<void *> src = list->allocate(256, false);
  ASSERT_TRUE(bool(src));
  void *dst;
  {
    CurrentDevice on(*list, 1);
    rt::Expected<void *> made = list->allocate(128, false);
    ASSERT_TRUE(bool(made));
    dst = *made;
  }
  std::vector<uint8_t> host(256), back(128);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = uint8_t(i * 7);
  ASSERT_FALSE(list->copy(*src, host.data(), 256, nullptr));
  ASSERT_FALSE(
      list->copy(dst, static_cast<uint8_t *>(*src) + 64, 128, nullptr));
  ASSERT_FALSE(list->copy(back.data(), dst, 128, nullptr));
  EXPECT_EQ(std::memcmp(back.data(), host.data() + 64, 128), 0);

  // Past the end of the destination on device 1.
  rt::Status s = list->copy(dst, *src, 200, nullptr);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuMemcpy's destination"), std::string::npos)
      << s.message();
  // Past the end of the source on device 0.
  s = list->copy(dst, static_cast<uint8_t *>(*src) + 192, 100, nullptr);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuMemcpy's source"), std::string::npos)
      << s.message();
  EXPECT_FALSE(list->free(*src));
  EXPECT_FALSE(list->free(dst));
}

/// A launch on device 1 refuses device 0's gpu.alloc memory (all spirv-cpu
/// memory is host memory: without the check it would silently work),
/// naming the kernel, the argument and both devices; its own memory and
/// host memory work on either device.
TEST(SPIRVCPUDevices, ALaunchRefusesAnotherDevicesMemory) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0");
  void *f = loadKernel(*list, kCount, countKernel, 1002);
  rt::Expected<void *> zero = list->allocate(64, false);
  ASSERT_TRUE(bool(zero));
  ASSERT_FALSE(list->fill32(*zero, 0, 16, nullptr));
  CurrentDevice on(*list, 1);
  rt::Expected<void *> one = list->allocate(64, false);
  ASSERT_TRUE(bool(one));

  rt::Status s = launchOver(*list, f, *zero, 16);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(),
            "kernel 'devices_count' argument 0 is memory of device 0 (its "
            "gpu.alloc), but the launch runs on device 1; copy it to device "
            "1 first (gpu.memcpy)");
  // Inside the allocation, not at its start: refused too.
  s = launchOver(*list, f, static_cast<uint32_t *>(*zero) + 4, 4);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("is memory of device 0"), std::string::npos);
  std::vector<uint32_t> check(16, 0);
  ASSERT_FALSE(list->copy(check.data(), *zero, 64, nullptr));
  EXPECT_EQ(check[0], 0u) << "the refused launch ran";

  ASSERT_FALSE(launchOver(*list, f, *one, 16));
  ASSERT_FALSE(list->copy(check.data(), *one, 64, nullptr));
  EXPECT_EQ(check[15], 16u);
  for (int device : {1, 0}) {
    CurrentDevice there(*list, device);
    std::vector<uint32_t> host(16, 0);
    ASSERT_FALSE(launchOver(*list, f, host.data(), 16)) << device;
    EXPECT_EQ(host[15], 16u);
  }
  // On device 0 (a stream of it), device 0's memory is its own.
  {
    CurrentDevice there(*list, 0);
    ASSERT_FALSE(launchOver(*list, f, *zero, 16));
  }
  EXPECT_FALSE(list->free(*zero));
  EXPECT_FALSE(list->free(*one));
}

/// Timing reports each launch with its device's index: to the callback and
/// on the printed line, at its end.
TEST(SPIRVCPUDevices, TimingNamesTheDevice) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0");
  rt::Options timing;
  timing.timing = true;
  ASSERT_FALSE(list->configure(timing));
  void *f = loadKernel(*list, kCount, countKernel, 1003);
  static std::vector<std::pair<std::string, int>> seen;
  seen.clear();
  ASSERT_FALSE(list->setDeviceTimingCallback(
      [](void *, const char *kernel, int32_t device, double us) {
        seen.emplace_back(kernel, device);
        EXPECT_GE(us, 0.0);
      },
      nullptr));
  std::vector<uint32_t> out(4);
  testing::internal::CaptureStderr();
  rt::Status first = launchOver(*list, f, out.data(), 4);
  rt::Status second;
  {
    CurrentDevice on(*list, 1);
    second = launchOver(*list, f, out.data(), 4);
  }
  std::string printed = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(first);
  ASSERT_FALSE(second);
  ASSERT_FALSE(list->setDeviceTimingCallback(nullptr, nullptr));
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_pair(std::string("devices_count"), 0));
  EXPECT_EQ(seen[1], std::make_pair(std::string("devices_count"), 1));
  size_t line = printed.find("kiln-timing kernel=devices_count gpu_us=");
  ASSERT_NE(line, std::string::npos) << printed;
  size_t end = printed.find('\n', line);
  EXPECT_EQ(printed.substr(end - 9, 9), " device=0") << printed;
  line = printed.find("kiln-timing kernel=devices_count gpu_us=", end);
  ASSERT_NE(line, std::string::npos) << printed;
  end = printed.find('\n', line);
  EXPECT_NE(printed.find("host_us=", line), std::string::npos);
  EXPECT_EQ(printed.substr(end - 9, 9), " device=1") << printed;
}

/// Two threads launch on two devices at once: each kernel waits until the
/// other device's kernel runs too, which a process-wide executor (one
/// launch at a time) would never let happen.
std::atomic<int> running{0};
std::atomic<bool> overlapped{false};

void meetKernel(Invocation *inv) {
  running.fetch_add(1);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (running.load() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (running.load() >= 2)
    overlapped = true;
  static_cast<uint32_t *>(inv->resources[0])[0] = 1;
}
const KernelDesc kMeet = {
    kABIVersion,    0,          0,       0,      1, 0, 0, 0,
    "devices_meet", kOneBuffer, nullptr, nullptr};

TEST(SPIRVCPUDevices, TwoThreadsLaunchOnTwoDevicesAtOnce) {
  std::unique_ptr<rt::DeviceList> list = makeList("0,0", "2");
  void *f = loadKernel(*list, kMeet, meetKernel, 1004);
  running = 0;
  overlapped = false;
  uint32_t out[2] = {0, 0};
  rt::Status statuses[2];
  std::vector<std::thread> threads;
  for (int device = 0; device < 2; ++device)
    threads.emplace_back([&, device] {
      if (rt::Status s = list->setDefaultDevice(device)) {
        statuses[device] = s;
        return;
      }
      statuses[device] = launchOver(*list, f, &out[device], 1);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_FALSE(statuses[0]) << statuses[0].message();
  EXPECT_FALSE(statuses[1]) << statuses[1].message();
  EXPECT_TRUE(overlapped);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[1], 1u);
  EXPECT_EQ(deviceOf(*list, 0).stats().launches, 1u);
  EXPECT_EQ(deviceOf(*list, 1).stats().launches, 1u);
}

/// A device whose worker still runs a timed-out launch goes away without
/// waiting for it; the worker ends once it leaves the launch.
std::atomic<bool> releaseStuck{false};

void stuckKernel(Invocation *) {
  while (!releaseStuck)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}
const KernelDesc kStuck = {
    kABIVersion,     0,       0,       0,      0, 0, 0, 0,
    "devices_stuck", nullptr, nullptr, nullptr};

TEST(SPIRVCPUDevices, ADeviceGoesAwayWhileAWorkerRunsATimedOutLaunch) {
  releaseStuck = false; // Also when the test repeats.
  std::unique_ptr<rt::DeviceList> list = makeList("0,0", "2");
  rt::Options options;
  options.timeout = "0.1";
  ASSERT_FALSE(list->configure(options));
  void *f = loadKernel(*list, kStuck, stuckKernel, 1005, /*noArgs=*/true);
  rt::Status s = list->launch(f, {1, 1, 1}, {1, 1, 1}, 0, nullptr, nullptr, 0);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.kind(), rt::ErrorKind::Timeout);
  // Joining the stuck worker would wait here for good.
  list.reset();
  releaseStuck = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

} // namespace
