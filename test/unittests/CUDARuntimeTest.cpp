//===- CUDARuntimeTest.cpp - Kiln's CUDA runtime without a GPU ------------===//
//
// The runtime against FakeCUDADriver (a libcuda.so.1 stand-in that keeps
// memory on the host and runs no kernels) and against no driver at all:
// its bookkeeping (registrations, devices, modules) and every error path
// that can be reached without an NVIDIA GPU. Each error test runs in a
// fresh process, because the runtime opens the driver once.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Target/Container.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <unistd.h>
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

/// The stand-in driver: fake-cuda/libcuda.so.1 beside this executable (as in
/// the build tree and in the device kit), else where the build put it.
const std::string &fakeDriver() {
  static const std::string path = [] {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) {
      std::string dir(self, static_cast<size_t>(n));
      dir.resize(dir.rfind('/'));
      std::string beside = dir + "/fake-cuda/libcuda.so.1";
      if (access(beside.c_str(), R_OK) == 0)
        return beside;
    }
    return std::string(FAKE_CUDA_DRIVER);
  }();
  return path;
}

template <typename T> T fake(const char *name) {
  void *handle = dlopen(fakeDriver().c_str(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(handle, nullptr) << "the fake driver is not loaded";
  void *symbol = handle ? dlsym(handle, name) : nullptr;
  EXPECT_NE(symbol, nullptr) << name;
  return reinterpret_cast<T>(symbol);
}

/// A rank-1 memref descriptor.
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

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

TEST(CUDARuntime, DefaultDeviceIsHonouredAfterFirstUse) {
  auto lastDevice = fake<int (*)()>("fakeCudaLastLaunchDevice");
  void *module = mgpuModuleLoad(kPTX, std::strlen(kPTX));
  void *function = mgpuModuleGetFunction(module, "add_one");
  launch(function);
  EXPECT_EQ(lastDevice(), 0);
  mgpuSetDefaultDevice(1);
  void *module1 = mgpuModuleLoad(kPTX, std::strlen(kPTX));
  launch(mgpuModuleGetFunction(module1, "add_one"));
  EXPECT_EQ(lastDevice(), 1);
  mgpuSetDefaultDevice(0);
  mgpuModuleUnload(module);
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
  EXPECT_STREQ(kilnCudaDeviceChip(), "sm_90");
}

//===-- Errors, each in a fresh process ------------------------------------===//

using ::testing::ExitedWithCode;

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
      ExitedWithCode(1),
      "KILN_CUDA_DEVICE=5 is not a device index \\(2 devices: 0..1\\)");
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
  EXPECT_EXIT(mgpuSetDefaultDevice(7), ExitedWithCode(1),
              "mgpuSetDefaultDevice\\(7\\): no such device \\(2 devices\\)");
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
      ExitedWithCode(0), "kiln-timing kernel=add_one gpu_us=500.000 host_us=");
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
