//===- CUDARuntimeTest.cpp - Kiln's CUDA runtime without a GPU ------------===//
//
// The runtime against FakeCUDADriver (a libcuda.so.1 stand-in that keeps
// memory on the host and runs no kernels) and against no driver at all:
// its bookkeeping (registrations, devices, modules) and every error path
// that can be reached without an NVIDIA GPU, through the mgpu* entry points
// (which exit) and through kilnCudaRuntime() (which returns the errors).
// Each test that needs another driver or environment runs in a fresh
// process, because the runtime opens the driver once.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Contract/Container.h"
#include "kiln/Runtime/Runtime.h"

#include "FakeCUDA.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char *kPTX = R"(//
.version 7.8
.target sm_90
.address_size 64
.visible .entry add_one(
	.param .u64 add_one_param_0
)
{
	ret;
}
.visible .entry illegal_access()
{
	ret;
}
)";

using kiln::test::fake;
using kiln::test::fakeDriver;

/// A rank-1 memref descriptor.
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

using ::testing::ExitedWithCode;

void launch(void *function, intptr_t block = 32) {
  void *stream = mgpuStreamCreate();
  void *arg = nullptr;
  void *params[] = {&arg};
  mgpuLaunchKernel(function, 1, 1, 1, block, 1, 1, 0, stream, params, nullptr,
                   1);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

TEST(CUDARuntime, AllocMemsetCopyRoundTrip) {
  void *stream = mgpuStreamCreate();
  auto *device =
      static_cast<uint32_t *>(mgpuMemAlloc(16 * sizeof(uint32_t), stream, false));
  ASSERT_NE(device, nullptr);
  mgpuMemset32(device, 0xdeadbeef, 16, stream);
  std::vector<uint32_t> host(16, 0);
  mgpuMemcpy(host.data(), device, 16 * sizeof(uint32_t), stream);
  mgpuStreamSynchronize(stream);
  for (uint32_t v : host)
    EXPECT_EQ(v, 0xdeadbeefu);
  auto *shared =
      static_cast<uint16_t *>(mgpuMemAlloc(8 * sizeof(uint16_t), stream, true));
  mgpuMemset16(shared, 7, 8, stream);
  EXPECT_EQ(shared[7], 7);
  mgpuMemFree(shared, stream);
  mgpuMemFree(device, stream);
  EXPECT_EQ(mgpuMemAlloc(0, stream, false), nullptr);
  mgpuStreamDestroy(stream);
}

// A thread waiting for its stream does not hold the runtime's lock: while
// the (fake) work takes a second, another thread allocates.
TEST(CUDARuntime, WaitingThreadDoesNotBlockOthers) {
  void *stream = mgpuStreamCreate();
  setenv("FAKE_CUDA_SYNC_MS", "1000", 1);
  std::atomic<bool> started{false};
  std::chrono::steady_clock::time_point waitDone, otherDone;
  std::thread waiter([&] {
    started = true;
    mgpuStreamSynchronize(stream);
    waitDone = std::chrono::steady_clock::now();
  });
  while (!started)
    std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  void *device = mgpuMemAlloc(64, nullptr, false);
  EXPECT_NE(device, nullptr);
  otherDone = std::chrono::steady_clock::now();
  waiter.join();
  mgpuMemFree(device, nullptr);
  unsetenv("FAKE_CUDA_SYNC_MS");
  EXPECT_LT(otherDone, waitDone);
  mgpuStreamDestroy(stream);
}

TEST(CUDARuntime, HostRegistrationsAreCountedPerPage) {
  auto ranges = fake<int (*)()>("fakeCudaRegisteredRanges");
  auto calls = fake<int (*)()>("fakeCudaRegisterCalls");
  auto isRegistered = fake<int (*)(void *)>("fakeCudaIsRegistered");
  int callsBefore = calls();
  std::vector<float> buffer(4096 * 4);
  MemRef1D whole = {buffer.data(), buffer.data(), 0,
                    (int64_t)buffer.size(), 1};
  // A strided view over the second half, and the same memory again.
  MemRef1D view = {buffer.data(), buffer.data(), 8192, 2048, 2};
  mgpuMemHostRegisterMemRef(1, &whole, sizeof(float));
  EXPECT_TRUE(isRegistered(buffer.data()));
  EXPECT_TRUE(isRegistered(&buffer.back()));
  mgpuMemHostRegisterMemRef(1, &view, sizeof(float));
  mgpuMemHostRegister(buffer.data(), 64);
  EXPECT_EQ(calls() - callsBefore, 1) << "overlaps must not re-register";
  mgpuMemHostUnregisterMemRef(1, &whole, sizeof(float));
  EXPECT_TRUE(isRegistered(&buffer[8192])) << "the view still needs it";
  mgpuMemHostUnregisterMemRef(1, &view, sizeof(float));
  EXPECT_TRUE(isRegistered(buffer.data()));
  mgpuMemHostUnregister(buffer.data());
  EXPECT_FALSE(isRegistered(buffer.data()));
  EXPECT_EQ(ranges(), 0);
  KilnCudaStats stats;
  kilnCudaGetStats(&stats);
  EXPECT_EQ(stats.registeredRanges, 0u);
  EXPECT_EQ(stats.hostRegisterCalls, stats.hostUnregisterCalls);
}

TEST(CUDARuntime, RegistrationGrowsAroundRegisteredPages) {
  auto calls = fake<int (*)()>("fakeCudaRegisterCalls");
  auto isRegistered = fake<int (*)(void *)>("fakeCudaIsRegistered");
  std::vector<char> buffer(8 * 4096);
  int before = calls();
  mgpuMemHostRegister(&buffer[3 * 4096], 4096);
  // A larger range around it registers the pages on both sides only.
  MemRef1D whole = {buffer.data(), buffer.data(), 0, (int64_t)buffer.size(), 1};
  mgpuMemHostRegisterMemRef(1, &whole, 1);
  EXPECT_EQ(calls() - before, 3);
  mgpuMemHostUnregister(&buffer[3 * 4096]);
  EXPECT_TRUE(isRegistered(&buffer[3 * 4096]));
  mgpuMemHostUnregisterMemRef(1, &whole, 1);
  EXPECT_FALSE(isRegistered(buffer.data()));
  EXPECT_FALSE(isRegistered(&buffer[3 * 4096]));
}

TEST(CUDARuntime, DeviceMemoryIsNotRegistered) {
  auto calls = fake<int (*)()>("fakeCudaRegisterCalls");
  int before = calls();
  void *device = mgpuMemAlloc(4096, nullptr, false);
  MemRef1D view = {device, device, 0, 1024, 1};
  mgpuMemHostRegisterMemRef(1, &view, 4);
  mgpuMemHostUnregisterMemRef(1, &view, 4);
  EXPECT_EQ(calls(), before);
  mgpuMemFree(device, nullptr);
}

// KILN_CUDA_DEVICE lists the program's devices; mgpuSetDefaultDevice picks
// one of them for the calling thread, also after the first use.
TEST(CUDARuntimeErrors, DefaultDeviceIsHonouredAfterFirstUse) {
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DEVICE", "0,1", 1);
        auto lastDevice = fake<int (*)()>("fakeCudaLastLaunchDevice");
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        void *function = mgpuModuleGetFunction(module, "add_one");
        launch(function);
        int first = lastDevice();
        mgpuSetDefaultDevice(1);
        launch(function);
        int second = lastDevice();
        mgpuSetDefaultDevice(0);
        launch(function);
        std::fprintf(stderr, "launched on %d %d %d\n", first, second,
                     lastDevice());
        mgpuModuleUnload(module);
        std::exit(0);
      },
      ExitedWithCode(0), "launched on 0 1 0");
}

TEST(CUDARuntime, PTXWithoutTerminatorAndJITLoad) {
  // mgpuModuleLoad gets a size; the text need not end in NUL.
  std::string ptx(kPTX);
  std::vector<char> bytes(ptx.begin(), ptx.end());
  void *module = mgpuModuleLoad(bytes.data(), bytes.size());
  EXPECT_NE(mgpuModuleGetFunction(module, "illegal_access"), nullptr);
  void *jit = mgpuModuleLoadJIT(const_cast<char *>(kPTX), 3);
  EXPECT_NE(mgpuModuleGetFunction(jit, "add_one"), nullptr);
}

TEST(CUDARuntime, ClusterLaunchPassesClusterDims) {
  auto clusterX = fake<unsigned (*)()>("fakeCudaLastClusterX");
  void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
  void *function = mgpuModuleGetFunction(module, "add_one");
  void *arg = nullptr;
  void *params[] = {&arg};
  mgpuLaunchClusterKernel(function, 2, 1, 1, 4, 1, 1, 128, 1, 1, 0, nullptr,
                          params, nullptr, 1);
  EXPECT_EQ(clusterX(), 2u);
}

TEST(CUDARuntime, DestroyedStreamsAreReused) {
  void *first = mgpuStreamCreate();
  mgpuStreamDestroy(first);
  void *second = mgpuStreamCreate();
  EXPECT_EQ(first, second);
  void *third = mgpuStreamCreate();
  EXPECT_NE(second, third);
  mgpuStreamDestroy(second);
  mgpuStreamDestroy(third);
}

TEST(CUDARuntime, ListDevicesAndChip) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(kilnCudaListDevices(), 0);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("CUDA driver 12.8, 2 devices"), std::string::npos) << out;
  EXPECT_NE(out.find("1: Fake GPU 1\n   chip sm_80"), std::string::npos) << out;
  EXPECT_NE(
      out.find(" bytes\n   uuid: GPU-fa4ec0da-0000-0000-0000-000000000001\n"),
      std::string::npos)
      << out;
  EXPECT_STREQ(kilnCudaDeviceChip(), "sm_90");
}

//===-- Errors, each in a fresh process ------------------------------------===//

struct TimedLaunch {
  std::string kernel;
  double us;
};

void collect(void *user, const char *kernel, double us) {
  static_cast<std::vector<TimedLaunch> *>(user)->push_back({kernel, us});
}

TEST(CUDARuntime, TimingCallbackReceivesEachLaunch) {
  void *fn = mgpuModuleGetFunction(mgpuModuleLoad(kPTX, std::strlen(kPTX)),
                                   "add_one");
  std::vector<TimedLaunch> times;
  kilnCudaSetTimingCallback(collect, &times);
  launch(fn);
  launch(fn);
  kilnCudaSetTimingCallback(nullptr, nullptr);
  launch(fn);
  ASSERT_EQ(times.size(), 2u);
  for (const TimedLaunch &t : times) {
    EXPECT_EQ(t.kernel, "add_one");
    EXPECT_EQ(t.us, 500.0); // the stand-in's cuEventElapsedTime
  }
}

TEST(CUDARuntime, DeviceCopyAndTimedWork) {
  const size_t n = 4096;
  std::vector<uint32_t> pattern(n), back(n, 0);
  for (size_t i = 0; i < n; ++i)
    pattern[i] = uint32_t(i * 2654435761u);
  void *a = mgpuMemAlloc(n * 4, nullptr, false);
  void *b = mgpuMemAlloc(n * 4, nullptr, false);
  mgpuMemcpy(a, pattern.data(), n * 4, nullptr);
  EXPECT_EQ(kilnCudaDeviceCopy(b, a, n * 4), 500.0);
  mgpuMemcpy(back.data(), b, n * 4, nullptr);
  EXPECT_EQ(back, pattern);
  void *seen = nullptr;
  double us = kilnCudaTimed(
      [](void *user, void *stream) { *static_cast<void **>(user) = stream; },
      &seen);
  EXPECT_EQ(us, 500.0);
  EXPECT_NE(seen, nullptr) << "the work gets a stream of its own";
  mgpuMemFree(a, nullptr);
  mgpuMemFree(b, nullptr);
}

TEST(CUDARuntime, DeviceInfo) {
  KilnCudaDeviceInfo info;
  ASSERT_EQ(kilnCudaGetDeviceInfo(&info), 0);
  EXPECT_STREQ(info.name, "Fake GPU 0");
  EXPECT_EQ(info.ordinal, 0);
  EXPECT_GT(info.major, 0);
  EXPECT_GT(info.driverVersion, 0);
}

TEST(CUDARuntimeErrors, NoDriver) {
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      "kiln-cuda: cannot open the CUDA driver /nonexistent/libcuda.so.1 "
      "\\(is the NVIDIA driver installed\\?\\)");
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
        std::exit(kilnCudaListDevices());
      },
      ExitedWithCode(1), "kiln-cuda: cannot open the CUDA driver");
}

TEST(CUDARuntimeErrors, InitFailureNamesTheCallAndResult) {
  EXPECT_EXIT(
      {
        setenv("FAKE_CUDA_INIT_RESULT", "100", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      "kiln-cuda: cuInit failed: CUDA_ERROR_NO_DEVICE \\(fake driver error\\)");
}

TEST(CUDARuntimeErrors, NoDevice) {
  EXPECT_EXIT(
      {
        setenv("FAKE_CUDA_DEVICES", "0", 1);
        mgpuStreamCreate();
      },
      ExitedWithCode(1), "kiln-cuda: no CUDA device");
}

TEST(CUDARuntimeErrors, DeviceSelection) {
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DEVICE", "5", 1);
        mgpuStreamCreate();
      },
      ExitedWithCode(1), "no CUDA device has index 5 \\(2 devices: 0..1\\)");
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DEVICE", "quadro", 1);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      "no CUDA device matches 'quadro'; devices:\n  0: Fake GPU 0\n  1: Fake "
      "GPU 1");
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DEVICE", "gpu 1", 1);
        std::fprintf(stderr, "chip %s\n", kilnCudaDeviceChip());
        std::exit(0);
      },
      ExitedWithCode(0), "chip sm_80");
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DEVICE", "1,0", 1);
        mgpuSetDefaultDevice(7);
      },
      ExitedWithCode(1),
      "mgpuSetDefaultDevice\\(7\\): the program has 2 devices "
      "\\(KILN_CUDA_DEVICE=1,0\\), numbered 0..1");
}

TEST(CUDARuntimeErrors, ModuleLoadShowsTheJITLog) {
  EXPECT_EXIT(
      {
        const char *bad = ".version 7.8\n.target sm_90\nfake_syntax_error;\n";
        mgpuModuleLoadJIT(const_cast<char *>(bad), 2);
      },
      ExitedWithCode(1),
      "cuModuleLoadDataEx \\(PTX, 0 bytes\\) failed: CUDA_ERROR_INVALID_PTX "
      "\\(fake driver error\\)\nJIT error log:\nptxas application ptx input, "
      "line 3; error   : Unknown symbol 'fake_syntax_error'");
}

/// The first words of a Kiln container.
const uint32_t kVulkanContainer[] = {kiln::container::kMagic,
                                     kiln::container::kVersion, 0, 0};

TEST(CUDARuntimeErrors, VulkanModule) {
  EXPECT_EXIT(
      mgpuModuleLoad(kVulkanContainer, sizeof kVulkanContainer),
      ExitedWithCode(1),
      "this module is SPIR-V in Kiln's container, compiled for Vulkan");
}

TEST(CUDARuntimeErrors, UnknownKernelListsTheKernels) {
  EXPECT_EXIT(
      {
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        mgpuModuleGetFunction(module, "add_two");
      },
      ExitedWithCode(1),
      "no kernel 'add_two' in the module \\(kernels: add_one, "
      "illegal_access\\)");
}

TEST(CUDARuntimeErrors, BlockTooLarge) {
  EXPECT_EXIT(
      {
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        launch(mgpuModuleGetFunction(module, "add_one"), 2048);
      },
      ExitedWithCode(1),
      "kernel 'add_one' launched with block \\(2048, 1, 1\\) = 2048 threads; "
      "it can run at most 1024 per block on device 0 \\(Fake GPU 0\\)");
  EXPECT_EXIT(
      {
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        launch(mgpuModuleGetFunction(module, "add_one"), 0);
      },
      ExitedWithCode(1), "every dimension must be at least 1");
}

TEST(CUDARuntimeErrors, IllegalAddressExplainsHostMemory) {
  EXPECT_EXIT(
      {
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        launch(mgpuModuleGetFunction(module, "illegal_access"));
      },
      ExitedWithCode(1),
      "cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS .*host memory "
      "that is not registered with the driver");
}

TEST(CUDARuntimeErrors, UnregisterOfUnknownPointer) {
  int x = 0;
  EXPECT_EXIT(mgpuMemHostUnregister(&x), ExitedWithCode(1),
              "that pointer was not registered with mgpuMemHostRegister");
}

TEST(CUDARuntimeErrors, TimingPrintsOneLinePerLaunch) {
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_TIMING", "1", 1);
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        launch(mgpuModuleGetFunction(module, "add_one"));
        std::exit(0);
      },
      ExitedWithCode(0),
      "kiln-timing kernel=add_one gpu_us=500.000 host_us=[0-9.]+ device=0\n");
}

//===-- The C++ interface: errors come back --------------------------------===//

using kiln::rt::Dim3;
using kiln::rt::ErrorKind;
using kiln::rt::Expected;
using kiln::rt::Status;

kiln::rt::Runtime &rt() { return *kilnCudaRuntime(); }

/// "KIND | CALL | RESULT | CODE | MESSAGE" of an error, for death tests,
/// whose child reports through stderr.
std::string summary(const Status &error) {
  if (!error)
    return "success";
  const kiln::rt::ErrorInfo &info = error.info();
  return std::string(kiln::rt::errorKindName(info.kind)) + " | " + info.call +
         " | " + info.result + " | " + std::to_string(info.code) + " | " +
         info.message;
}

/// A module whose first kernel fails to launch (the stand-in driver fails
/// kernels named launch_fails*).
constexpr const char *kFailingPTX = R"(//
.version 7.8
.target sm_90
.address_size 64
.visible .entry launch_fails()
{
	ret;
}
)";

TEST(CUDARuntimeAPI, DevicesAndTarget) {
  ASSERT_NE(kilnCudaRuntime(), nullptr);
  EXPECT_EQ(kilnCudaRuntime(), kilnCudaRuntime());
  EXPECT_STREQ(rt().backend(), "cuda");
  ASSERT_FALSE(rt().initialize()) << summary(rt().initialize());
  Expected<std::string> devices = rt().describeDevices();
  ASSERT_TRUE(devices) << summary(devices.error());
  EXPECT_NE(devices->find("CUDA driver 12.8, 2 devices"), std::string::npos);
  EXPECT_NE(devices->find("1: Fake GPU 1\n   chip sm_80"), std::string::npos);
  EXPECT_NE(devices->find("   uuid: GPU-fa4ec0da-0000-0000-0000-000000000000\n"
                          "1: Fake GPU 1"),
            std::string::npos)
      << *devices;
  Expected<std::string> target = rt().deviceTarget();
  ASSERT_TRUE(target) << summary(target.error());
  EXPECT_EQ(*target, "sm_90");
}

TEST(CUDARuntimeAPI, BadModulesAreErrorsAndLaterLoadsWork) {
  const char *bad = ".version 7.8\n.target sm_90\nfake_syntax_error;\n";
  Expected<void *> module = rt().loadModule(bad, std::strlen(bad));
  ASSERT_FALSE(module);
  const Status &error = module.error();
  EXPECT_EQ(error.kind(), ErrorKind::InvalidArgument) << summary(error);
  EXPECT_EQ(error.info().call, "cuModuleLoadDataEx");
  EXPECT_EQ(error.info().result, "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(error.info().code, 218);
  EXPECT_NE(error.message().find("Unknown symbol 'fake_syntax_error'"),
            std::string::npos)
      << error.message();
  EXPECT_EQ(error.where().rfind("Executable.cpp:", 0), 0u) << error.where();

  Expected<void *> vulkan =
      rt().loadModule(kVulkanContainer, sizeof kVulkanContainer);
  ASSERT_FALSE(vulkan);
  EXPECT_EQ(vulkan.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(vulkan.error().message().find("compiled for Vulkan"),
            std::string::npos);
  EXPECT_EQ(vulkan.error().info().call, "");
  Expected<void *> none = rt().loadModule(nullptr, 0);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind(), ErrorKind::InvalidArgument);

  Expected<void *> good = rt().loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(good) << summary(good.error());
  Expected<void *> missing = rt().getFunction(*good, "add_two");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(missing.error().message(),
            "no kernel 'add_two' in the module (kernels: add_one, "
            "illegal_access)");
  Expected<void *> function = rt().getFunction(*good, "add_one");
  ASSERT_TRUE(function) << summary(function.error());
  EXPECT_NE(*function, nullptr);
  EXPECT_FALSE(rt().unloadModule(*good));
}

TEST(CUDARuntimeAPI, OutOfMemoryIsAnErrorAndLaterAllocationsWork) {
  KilnCudaStats before;
  kilnCudaGetStats(&before);
  const uint64_t huge = 2ull << 40; // The stand-in holds at most 1 TiB.
  Expected<void *> failed = rt().allocate(huge, false);
  ASSERT_FALSE(failed);
  const Status &error = failed.error();
  EXPECT_EQ(error.kind(), ErrorKind::OutOfMemory) << summary(error);
  EXPECT_EQ(error.info().call, "cuMemAlloc");
  EXPECT_EQ(error.info().result, "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(error.info().code, 2);
  EXPECT_EQ(error.message(),
            "cannot allocate 2199023255552 bytes (2048.0 GiB) for an "
            "mgpuMemAlloc (gpu.alloc) on device 0 (Fake GPU 0), which has "
            "85899345920 bytes (80.0 GiB) of memory: cuMemAlloc failed: "
            "CUDA_ERROR_OUT_OF_MEMORY (fake driver error)");

  Expected<void *> stream = rt().createStream();
  ASSERT_TRUE(stream) << summary(stream.error());
  Expected<void *> small = rt().allocate(16 * sizeof(uint32_t), false);
  ASSERT_TRUE(small) << summary(small.error());
  ASSERT_NE(*small, nullptr);
  EXPECT_FALSE(rt().fill32(*small, 0x12345678u, 16, *stream));
  std::vector<uint32_t> host(16, 0);
  EXPECT_FALSE(rt().copy(host.data(), *small, 16 * sizeof(uint32_t), *stream));
  EXPECT_FALSE(rt().synchronize(*stream));
  EXPECT_EQ(host, std::vector<uint32_t>(16, 0x12345678u));
  Expected<void *> copy = rt().allocate(16 * sizeof(uint32_t), true);
  ASSERT_TRUE(copy) << summary(copy.error());
  Expected<double> us = rt().deviceCopy(*copy, *small, 16 * sizeof(uint32_t));
  ASSERT_TRUE(us) << summary(us.error());
  EXPECT_EQ(*us, 500.0);
  EXPECT_EQ(static_cast<uint32_t *>(*copy)[15], 0x12345678u);
  EXPECT_FALSE(rt().free(*small));
  EXPECT_FALSE(rt().free(*copy));
  EXPECT_FALSE(rt().destroyStream(*stream));
  Expected<void *> empty = rt().allocate(0, false);
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, nullptr);
  KilnCudaStats after;
  kilnCudaGetStats(&after);
  EXPECT_EQ(after.allocations - before.allocations, 2u);
}

TEST(CUDARuntimeAPI, BadLaunchesAreErrorsThatNameTheKernel) {
  Expected<void *> module = rt().loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(module) << summary(module.error());
  Expected<void *> function = rt().getFunction(*module, "add_one");
  ASSERT_TRUE(function) << summary(function.error());
  void *arg = nullptr;
  void *params[] = {&arg};
  KilnCudaStats before;
  kilnCudaGetStats(&before);

  Status zero = rt().launch(*function, Dim3{0, 1, 1}, Dim3{8, 1, 1}, 0, nullptr,
                            params, 1);
  EXPECT_EQ(zero.kind(), ErrorKind::InvalidArgument) << summary(zero);
  EXPECT_EQ(zero.message(),
            "kernel 'add_one' launched with grid (0, 1, 1) and block (8, 1, "
            "1): every dimension must be at least 1 and fit in 32 bits");
  Status large = rt().launch(*function, Dim3{1, 1, 1}, Dim3{2048, 1, 1}, 0,
                             nullptr, params, 1);
  EXPECT_EQ(large.kind(), ErrorKind::InvalidArgument) << summary(large);
  EXPECT_NE(large.message().find("it can run at most 1024 per block on "
                                 "device 0 (Fake GPU 0)"),
            std::string::npos)
      << large.message();
  Status noArguments = rt().launch(*function, Dim3{1, 1, 1}, Dim3{8, 1, 1}, 0,
                                   nullptr, nullptr, 1);
  EXPECT_EQ(noArguments.kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(noArguments.message(),
            "kernel 'add_one' launched with params null and paramsCount 1");
  KilnCudaStats after;
  kilnCudaGetStats(&after);
  EXPECT_EQ(after.launches, before.launches) << "nothing reached the driver";

  // The runtime goes on.
  Expected<void *> stream = rt().createStream();
  ASSERT_TRUE(stream) << summary(stream.error());
  EXPECT_FALSE(rt().launch(*function, Dim3{4, 1, 1}, Dim3{8, 1, 1}, 0, *stream,
                           params, 1));
  EXPECT_FALSE(rt().synchronize(*stream));
  EXPECT_FALSE(rt().destroyStream(*stream));
  kilnCudaGetStats(&after);
  EXPECT_EQ(after.launches, before.launches + 1);

  // Handles are looked up, never handed to the driver on trust: a destroyed
  // stream, a function or module the runtime did not return, a function of
  // an unloaded module.
  Status stale = rt().synchronize(*stream);
  EXPECT_EQ(stale.kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(stale.message(), "mgpuStreamSynchronize on a stream that "
                             "mgpuStreamCreate did not return (or that was "
                             "destroyed)");
  EXPECT_TRUE(rt().launch(*function, Dim3{1, 1, 1}, Dim3{8, 1, 1}, 0, *stream,
                          params, 1));
  EXPECT_TRUE(rt().destroyStream(*stream));
  int garbage[16] = {};
  Status foreign =
      rt().launch(garbage, Dim3{1, 1, 1}, Dim3{8, 1, 1}, 0, nullptr, params, 1);
  EXPECT_EQ(foreign.message(),
            "mgpuLaunchKernel with a function that mgpuModuleGetFunction did "
            "not return (or whose module was unloaded)");
  EXPECT_TRUE(rt().getFunction(garbage, "add_one").error());
  EXPECT_TRUE(rt().unloadModule(garbage));
  EXPECT_FALSE(rt().unloadModule(*module));
  EXPECT_TRUE(rt().unloadModule(*module));
  EXPECT_TRUE(rt().launch(*function, Dim3{1, 1, 1}, Dim3{8, 1, 1}, 0, nullptr,
                          params, 1));
  kilnCudaGetStats(&after);
  EXPECT_EQ(after.launches, before.launches + 1)
      << "nothing reached the driver";
}

// The checks each unit makes before the driver sees a call, with the
// messages that name the entry point: modules and kernels (Executables),
// streams (Queue), memref descriptors (Memory), and the last kernel on a
// stream that a lost device names (Device, told by the Launcher).
TEST(CUDARuntimeAPI, EachUnitChecksItsInputs) {
  Expected<void *> none = rt().loadModule(nullptr, 0);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message(), "mgpuModuleLoad: null module data");
  int garbage[16] = {};
  Expected<void *> foreign = rt().getFunction(garbage, "add_one");
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(foreign.error().message(),
            "mgpuModuleGetFunction of a module that mgpuModuleLoad did not "
            "return (or that was unloaded)");
  EXPECT_EQ(rt().unloadModule(garbage).message(),
            "mgpuModuleUnload of a module that mgpuModuleLoad did not return "
            "(or that was unloaded)");
  Expected<void *> module = rt().loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(module) << summary(module.error());
  Expected<void *> unnamed = rt().getFunction(*module, nullptr);
  ASSERT_FALSE(unnamed);
  EXPECT_EQ(unnamed.error().message(),
            "mgpuModuleGetFunction: null kernel name");

  Status stream = rt().destroyStream(garbage);
  EXPECT_EQ(stream.kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(stream.message(), "mgpuStreamDestroy on a stream that "
                              "mgpuStreamCreate did not return (or that was "
                              "destroyed)");

  MemRef1D memref = {garbage, garbage, 0, 4, 1};
  Status rank = rt().hostRegisterMemRef(-1, &memref, 4);
  EXPECT_EQ(rank.kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(rank.message(), "mgpuMemHost(Un)RegisterMemRef: bad descriptor "
                            "(rank -1, element size 4)");
  EXPECT_EQ(rt().hostUnregisterMemRef(1, nullptr, 4).message(),
            "mgpuMemHost(Un)RegisterMemRef: bad descriptor (rank 1, element "
            "size 4)");
  EXPECT_EQ(rt().hostRegisterMemRef(1, &memref, 0).message(),
            "mgpuMemHost(Un)RegisterMemRef: bad descriptor (rank 1, element "
            "size 0)");

  Expected<void *> failing =
      rt().loadModule(kFailingPTX, std::strlen(kFailingPTX));
  ASSERT_TRUE(failing) << summary(failing.error());
  Expected<void *> fails = rt().getFunction(*failing, "launch_fails");
  ASSERT_TRUE(fails) << summary(fails.error());
  Expected<void *> addOne = rt().getFunction(*module, "add_one");
  ASSERT_TRUE(addOne) << summary(addOne.error());
  Expected<void *> queue = rt().createStream();
  ASSERT_TRUE(queue) << summary(queue.error());
  void *arg = nullptr;
  void *params[] = {&arg};
  ASSERT_FALSE(rt().launch(*addOne, Dim3{}, Dim3{}, 0, *queue, params, 1));
  Status lost = rt().launch(*fails, Dim3{}, Dim3{}, 0, *queue, nullptr, 0);
  EXPECT_EQ(lost.kind(), ErrorKind::DeviceLost) << summary(lost);
  EXPECT_EQ(lost.info().call, "cuLaunchKernel");
  EXPECT_EQ(lost.info().result, "CUDA_ERROR_LAUNCH_FAILED");
  EXPECT_NE(lost.message().find("cuLaunchKernel (launch_fails) failed: "
                                "CUDA_ERROR_LAUNCH_FAILED"),
            std::string::npos)
      << lost.message();
  EXPECT_NE(lost.message().find(" after kernel 'add_one'"), std::string::npos)
      << lost.message();
  EXPECT_FALSE(rt().destroyStream(*queue));
  EXPECT_FALSE(rt().unloadModule(*failing));
  EXPECT_FALSE(rt().unloadModule(*module));
}

// A copy or fill that starts in a gpu.alloc allocation and runs past its
// end, or runs into one, is refused before the driver writes anything.
TEST(CUDARuntimeAPI, CopiesAndFillsStayInsideTheirAllocations) {
  Expected<void *> small = rt().allocate(40, /*hostShared=*/false);
  ASSERT_TRUE(small) << summary(small.error());
  std::vector<float> host(1000, 1.0f);
  Status past = rt().copy(*small, host.data(), 4000, nullptr);
  EXPECT_EQ(past.kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(past.message(),
            "mgpuMemcpy's destination (gpu.memcpy) of 4000 bytes at offset 0 "
            "of a 40-byte allocation (gpu.alloc) reaches past its end");
  Status source =
      rt().copy(host.data(), static_cast<char *>(*small) + 8, 40, nullptr);
  EXPECT_EQ(source.message(),
            "mgpuMemcpy's source (gpu.memcpy) of 40 bytes at offset 8 of a "
            "40-byte allocation (gpu.alloc) reaches past its end");
  Status fill = rt().fill(*small, 0, 4, 11, nullptr);
  EXPECT_EQ(fill.message(),
            "mgpuMemset (gpu.memset) of 44 bytes at offset 0 of a 40-byte "
            "allocation (gpu.alloc) reaches past its end");
  Status overflow = rt().fill(*small, 0, 4, SIZE_MAX / 2, nullptr);
  EXPECT_EQ(overflow.kind(), ErrorKind::InvalidArgument);
  Status wraps = rt().copy(reinterpret_cast<void *>(UINTPTR_MAX - 8),
                           host.data(), 64, nullptr);
  EXPECT_EQ(wraps.message(), "mgpuMemcpy's destination (gpu.memcpy) of 64 "
                             "bytes wraps around the address space");
  // What fits still works, and a freed allocation is forgotten.
  EXPECT_TRUE(rt().copy(*small, host.data(), 40, nullptr).ok());
  EXPECT_TRUE(rt().fill(*small, 0, 4, 10, nullptr).ok());
  EXPECT_TRUE(rt().free(*small).ok());
}

TEST(CUDARuntimeAPI, FailedLaunchesReleaseTheirTimingEvents) {
  auto liveEvents = fake<int (*)()>("fakeCudaLiveEvents");
  Expected<void *> module =
      rt().loadModule(kFailingPTX, std::strlen(kFailingPTX));
  ASSERT_TRUE(module) << summary(module.error());
  Expected<void *> function = rt().getFunction(*module, "launch_fails");
  ASSERT_TRUE(function) << summary(function.error());
  std::vector<TimedLaunch> times;
  ASSERT_FALSE(rt().setTimingCallback(collect, &times));
  int eventsBefore = liveEvents();
  Status failed =
      rt().launch(*function, Dim3{}, Dim3{}, 0, nullptr, nullptr, 0);
  EXPECT_FALSE(rt().setTimingCallback(nullptr, nullptr));
  EXPECT_EQ(failed.kind(), ErrorKind::DeviceLost) << summary(failed);
  EXPECT_EQ(failed.info().call, "cuLaunchKernel");
  EXPECT_EQ(failed.info().result, "CUDA_ERROR_LAUNCH_FAILED");
  EXPECT_NE(failed.message().find("cuLaunchKernel (launch_fails) failed"),
            std::string::npos)
      << failed.message();
  EXPECT_EQ(liveEvents(), eventsBefore) << "the timing events leaked";
  EXPECT_TRUE(times.empty());
  EXPECT_FALSE(rt().unloadModule(*module));
}

TEST(CUDARuntimeAPI, FailedDeviceCopyReleasesItsStreamAndEvents) {
  auto liveEvents = fake<int (*)()>("fakeCudaLiveEvents");
  auto liveStreams = fake<int (*)()>("fakeCudaLiveStreams");
  int events = liveEvents(), streams = liveStreams();
  std::vector<char> host(64);
  Expected<double> us = rt().deviceCopy(host.data(), host.data() + 32, 32);
  ASSERT_FALSE(us);
  EXPECT_EQ(us.error().kind(), ErrorKind::InvalidArgument)
      << summary(us.error());
  EXPECT_EQ(us.error().info().call, "cuMemcpyDtoDAsync");
  EXPECT_EQ(liveEvents(), events);
  EXPECT_EQ(liveStreams(), streams);
}

TEST(CUDARuntimeAPI, IllegalAddressIsDeviceLostAndNamesTheKernel) {
  Expected<void *> module = rt().loadModule(kPTX, std::strlen(kPTX));
  ASSERT_TRUE(module) << summary(module.error());
  Expected<void *> function = rt().getFunction(*module, "illegal_access");
  ASSERT_TRUE(function) << summary(function.error());
  Expected<void *> stream = rt().createStream();
  ASSERT_TRUE(stream) << summary(stream.error());
  ASSERT_FALSE(rt().launch(*function, Dim3{}, Dim3{}, 0, *stream, nullptr, 0));
  Status lost = rt().synchronize(*stream);
  EXPECT_EQ(lost.kind(), ErrorKind::DeviceLost) << summary(lost);
  EXPECT_EQ(lost.info().call, "cuStreamSynchronize");
  EXPECT_EQ(lost.info().result, "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(lost.info().code, 700);
  EXPECT_NE(lost.message().find("while waiting for kernel 'illegal_access'; "
                                "a kernel touched memory it may not"),
            std::string::npos)
      << lost.message();
  EXPECT_FALSE(rt().destroyStream(*stream));
}

TEST(CUDARuntimeAPI, TimeoutIsAnErrorAndTheRuntimeGoesOn) {
  EXPECT_EXIT(
      {
        setenv("KILN_TIMEOUT", "0.2", 1);
        setenv("FAKE_CUDA_BUSY", "1", 1);
        Expected<void *> module = rt().loadModule(kPTX, std::strlen(kPTX));
        Expected<void *> function = rt().getFunction(*module, "add_one");
        Expected<void *> stream = rt().createStream();
        void *arg = nullptr;
        void *params[] = {&arg};
        Status launched =
            rt().launch(*function, Dim3{}, Dim3{}, 0, *stream, params, 1);
        Status waited = rt().synchronize(*stream);
        std::fprintf(stderr, "launch: %s\nwait: %s\n",
                     summary(launched).c_str(), summary(waited).c_str());
        unsetenv("FAKE_CUDA_BUSY");
        std::fprintf(stderr, "again: %s\n",
                     summary(rt().synchronize(*stream)).c_str());
        std::exit(0);
      },
      ExitedWithCode(0),
      "launch: success\nwait: timeout \\|  \\|  \\| 0 \\| kernel 'add_one' did "
      "not "
      "complete within 0.2 s \\(KILN_TIMEOUT\\) on device 0 \\(Fake GPU "
      "0\\)\nagain: success");
}

void exitHandlerMustNotRun() { std::_Exit(3); }

TEST(CUDARuntimeErrors, TimeoutStopsAtOnce) {
  // mgpu* report the timeout and end the process without exit handlers.
  EXPECT_EXIT(
      {
        setenv("KILN_TIMEOUT", "0.2", 1);
        setenv("FAKE_CUDA_BUSY", "1", 1);
        std::atexit(exitHandlerMustNotRun);
        void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
        launch(mgpuModuleGetFunction(module, "add_one"));
      },
      ExitedWithCode(1),
      "kiln-cuda: kernel 'add_one' did not complete within 0.2 s "
      "\\(KILN_TIMEOUT\\) on device 0 \\(Fake GPU 0\\); stopping");
  EXPECT_EXIT(
      {
        setenv("KILN_TIMEOUT", "0.2", 1);
        setenv("FAKE_CUDA_BUSY", "1", 1);
        mgpuEventSynchronize(mgpuEventCreate());
      },
      ExitedWithCode(1),
      "kiln-cuda: the work before an event did not complete within 0.2 s "
      "\\(KILN_TIMEOUT\\) on device 0 \\(Fake GPU 0\\); stopping");
  EXPECT_EXIT(
      {
        setenv("KILN_TIMEOUT", "-1", 1);
        std::fprintf(stderr, "%s\n", summary(rt().initialize()).c_str());
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      "invalid argument \\|  \\|  \\| 0 \\| KILN_TIMEOUT='-1' is not a "
      "positive number of seconds\nkiln-cuda: KILN_TIMEOUT='-1' is not a "
      "positive number of seconds");
}

TEST(CUDARuntimeErrors, OutOfMemoryThroughMgpuExits) {
  EXPECT_EXIT(mgpuMemAlloc(2ull << 40, nullptr, false), ExitedWithCode(1),
              "kiln-cuda: cannot allocate 2199023255552 bytes \\(2048.0 GiB\\) "
              "for an mgpuMemAlloc \\(gpu.alloc\\) on device 0 \\(Fake GPU "
              "0\\), which has .* of memory: cuMemAlloc failed: "
              "CUDA_ERROR_OUT_OF_MEMORY");
}

TEST(CUDARuntimeAPI, MissingDriverIsADriverError) {
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
        std::fprintf(stderr, "initialize: %s\n",
                     summary(rt().initialize()).c_str());
        Expected<void *> memory = rt().allocate(16, false);
        std::fprintf(stderr, "allocate: %s\n",
                     memory ? "value" : summary(memory.error()).c_str());
        Expected<std::string> devices = rt().describeDevices();
        std::fprintf(stderr, "devices: %s\n",
                     devices ? "value" : summary(devices.error()).c_str());
        // The kiln* entry points with a result report and return.
        KilnCudaDeviceInfo info;
        int status = kilnCudaGetDeviceInfo(&info);
        const char *chip = kilnCudaDeviceChip();
        std::fprintf(stderr, "info %d, chip %s\n", status,
                     chip ? chip : "null");
        std::exit(0);
      },
      ExitedWithCode(0),
      "initialize: driver \\|  \\|  \\| 0 \\| cannot open the CUDA driver "
      "/nonexistent/libcuda.so.1 \\(is the NVIDIA driver installed\\?\\).*\n"
      "allocate: driver \\|.*cannot open the CUDA driver.*\n"
      "devices: driver \\|.*cannot open the CUDA driver.*\n"
      "kiln-cuda: cannot open the CUDA driver .*\n"
      "kiln-cuda: cannot open the CUDA driver .*\n"
      "info 1, chip null");
}

TEST(CUDARuntimeAPI, InitFailureAndNoDeviceAreDriverErrors) {
  EXPECT_EXIT(
      {
        setenv("FAKE_CUDA_INIT_RESULT", "100", 1);
        std::fprintf(stderr, "%s\n", summary(rt().initialize()).c_str());
        std::exit(0);
      },
      ExitedWithCode(0),
      "driver \\| cuInit \\| CUDA_ERROR_NO_DEVICE \\| 100 \\| cuInit failed: "
      "CUDA_ERROR_NO_DEVICE \\(fake driver error\\)");
  EXPECT_EXIT(
      {
        setenv("FAKE_CUDA_DEVICES", "0", 1);
        std::fprintf(stderr, "%s\n", summary(rt().initialize()).c_str());
        Expected<std::string> devices = rt().describeDevices();
        std::fprintf(stderr, "%s",
                     devices ? devices->c_str() : "no description\n");
        testing::internal::CaptureStdout(); // The listing's first line.
        int listed = kilnCudaListDevices();
        testing::internal::GetCapturedStdout();
        std::fprintf(stderr, "list %d\n", listed);
        std::exit(0);
      },
      ExitedWithCode(0),
      "driver \\|  \\|  \\| 0 \\| no CUDA device \\(the driver loaded, but "
      "reports none\\)\nCUDA driver 12.8, 0 devices\n"
      "kiln-cuda: no CUDA device\nlist 1");
  EXPECT_EXIT(
      {
        setenv("KILN_CUDA_DEVICE", "5", 1);
        std::fprintf(stderr, "%s\n", summary(rt().initialize()).c_str());
        std::exit(0);
      },
      ExitedWithCode(0),
      "invalid argument \\|  \\|  \\| 0 \\| no CUDA device has index 5 "
      "\\(2 devices: 0..1\\)");
}

/// Registers one page, then a range around it whose registration fails
/// half-way; an exit handler reports the pages after the entry point exited.
void registerWithFailure() {
  static std::vector<char> buffer(8 * 4096);
  static char *base = reinterpret_cast<char *>(
      (reinterpret_cast<uintptr_t>(buffer.data()) + 4095) & ~uintptr_t(4095));
  mgpuMemHostRegister(base + 3 * 4096, 4096);
  setenv("FAKE_CUDA_MAX_REGISTERED", "2", 1);
  std::atexit([] {
    auto isRegistered = fake<int (*)(void *)>("fakeCudaIsRegistered");
    auto ranges = fake<int (*)()>("fakeCudaRegisteredRanges");
    std::fprintf(stderr, "after: %d %d %d ranges %d\n", isRegistered(base),
                 isRegistered(base + 3 * 4096), isRegistered(base + 5 * 4096),
                 ranges());
  });
  MemRef1D whole = {base, base, 0, 6 * 4096, 1};
  mgpuMemHostRegisterMemRef(1, &whole, 1);
}

TEST(CUDARuntimeErrors, FailedRegistrationUndoesItself) {
  // The pages before the failure are unregistered again; the page that was
  // registered before keeps its one registration.
  EXPECT_EXIT(registerWithFailure(), ExitedWithCode(1),
              "kiln-cuda: cuMemHostRegister \\(8192 bytes at .*\\) failed: "
              "CUDA_ERROR_OUT_OF_MEMORY \\(fake driver error\\)\n"
              "after: 0 1 0 ranges 1");
}

} // namespace

int main(int argc, char **argv) {
  // Every test talks to the fake driver unless it says otherwise.
  setenv("KILN_CUDA_DRIVER", fakeDriver().c_str(), 1);
  unsetenv("KILN_CUDA_DEVICE");
  unsetenv("KILN_CUDA_TIMING");
  testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}

TEST(CUDARuntime, OptionsAreSetBeforeTheDriverLoads) {
  ASSERT_FALSE(rt().initialize()) << summary(rt().initialize());
  kiln::rt::Options options;
  options.timeout = "5";
  kiln::rt::Status late = rt().configure(options);
  ASSERT_TRUE(late);
  EXPECT_NE(late.message().find("options are set before it starts; the "
                                "driver is loaded already"),
            std::string::npos)
      << late.message();
  // The device list is read once too.
  options.device = "0";
  late = rt().configure(options);
  ASSERT_TRUE(late);
  EXPECT_NE(late.message().find("device list is set before its first use"),
            std::string::npos)
      << late.message();
}
