//===- VulkanRuntimeTest.cpp - The Vulkan runtime through mgpu* -----------===//
//
// Kiln's Vulkan runtime through its mgpu* ABI.
//
// Drives the runtime as JIT- or AOT-compiled host code does: containers built
// here around SPIR-V compiled by glslc, memref descriptors passed as the
// expanded (allocated, aligned, offset, sizes, strides) parameters. Runs on
// whatever Vulkan device the runtime picks (lavapipe without a GPU); skips
// when there is none. Errors end the process at the mgpu* entry points, so
// those are tested with death tests (each in a fresh process); the C++
// interface (kilnVulkanRuntime) returns them, and is tested in process.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/VulkanRuntime.h"
#include "kiln/Contract/Container.h"
#include "kiln/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <atomic>
#include <chrono>
#include <thread>
#include <unistd.h>

using namespace kiln::container;

namespace {

const uint32_t kStridedStore[] = {
#include "strided_store.inc"
};
const uint32_t kStridedStoreVec[] = {
#include "strided_store_vec.inc"
};
const uint32_t kIncrement[] = {
#include "increment.inc"
};
const uint32_t kPrint[] = {
#include "print.inc"
};
const uint32_t kSpin[] = {
#include "spin.inc"
};
const uint32_t kBigShared[] = {
#include "big_shared.inc"
};

/// Whether a Vulkan device exists, asked in a child process so that a
/// missing loader or device does not end this one.
bool haveDevice() {
  static int have = -1;
  if (have < 0)
    have = std::system("\"$KILN_UNITTEST_SELF\" --list-devices-probe "
                       ">/dev/null 2>&1") == 0;
  return have == 1;
}

#define REQUIRE_DEVICE()                                                       \
  if (!haveDevice())                                                           \
  GTEST_SKIP() << "no Vulkan device (kilnVulkanListDevices failed)"

ArgInfo memrefArg(uint32_t binding, uint32_t pushConstantOffset) {
  ArgInfo a;
  a.kind = ArgKind::MemRef;
  a.size = 4;
  a.rank = 1;
  a.binding = binding;
  a.pushConstantOffset = pushConstantOffset;
  return a;
}

std::vector<uint8_t> container(const uint32_t *words, size_t numWords,
                               uint32_t wgX, uint32_t pushConstants,
                               ArgInfo arg) {
  ModuleInfo m;
  KernelInfo k;
  k.name = "main";
  k.workgroupSize[0] = wgX;
  k.pushConstantSize = pushConstants;
  k.args.push_back(arg);
  m.kernels.push_back(k);
  m.spirv.assign(words, words + numWords);
  return write(m);
}

std::vector<uint8_t> stridedModule() {
  return container(kStridedStore, std::size(kStridedStore), 64, 12,
                   memrefArg(0, 0));
}

std::vector<uint8_t> incrementModule() {
  return container(kIncrement, std::size(kIncrement), 1, 0,
                   memrefArg(0, kNoPushConstant));
}

/// A rank-1 memref descriptor, as gpu-to-llvm passes it.
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset, size, stride;
  void *params[5] = {&allocated, &aligned, &offset, &size, &stride};
};

void launch(void *fn, intptr_t groups, intptr_t block, MemRef1D &m) {
  void *stream = mgpuStreamCreate();
  mgpuLaunchKernel(fn, groups, 1, 1, block, 1, 1, 0, stream, m.params, nullptr,
                   5);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

/// Launches the strided kernel with `block` threads and `numParams` of the
/// memref's five parameters.
void launchStrided(const std::vector<uint8_t> &bytes, intptr_t block,
                   size_t numParams) {
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  std::vector<int32_t> host(8);
  MemRef1D m{host.data(), host.data(), 0, 8, 1};
  mgpuLaunchKernel(fn, 1, 1, 1, block, 1, 1, 0, nullptr, m.params, nullptr,
                   numParams);
  mgpuStreamSynchronize(nullptr);
}

void allocOnDevice(const char *name) {
  setenv("KILN_VULKAN_DEVICE", name, 1);
  mgpuMemAlloc(16, nullptr, false);
}

/// Runs a launch with host import disabled; says on stderr whether the
/// result is right and staging was used.
void stageWithoutImport() {
  setenv("KILN_VULKAN_HOST_IMPORT", "0", 1);
  std::vector<uint8_t> bytes = stridedModule();
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  std::vector<int32_t> host(40, 0);
  MemRef1D m{host.data(), host.data(), 1, 8, 4};
  launch(fn, 1, 64, m);
  KilnVulkanStats stats;
  kilnVulkanGetStats(&stats);
  bool ok = stats.hostImports == 0 && stats.stagedCopies > 0;
  for (int i = 0; i < 40; ++i)
    ok &= host[i] ==
          ((i - 1) % 4 == 0 && i >= 1 && (i - 1) / 4 < 8 ? (i - 1) / 4 + 1 : 0);
  std::fprintf(stderr, ok ? "staged-ok\n" : "staged-wrong\n");
  for (int i = 0; i < 40 && !ok; ++i)
    std::fprintf(stderr, "%d ", host[i]);
  std::fprintf(stderr, "imports %d staged %d\n", int(stats.hostImports),
               int(stats.stagedCopies));
  std::exit(ok ? 0 : 1);
}

/// Opens the device with KILN_VULKAN_ROBUST=1 and says on stderr which
/// robustness it got; exits 0 when it is on.
void openRobust() {
  setenv("KILN_VULKAN_ROBUST", "1", 1);
  mgpuStreamDestroy(mgpuStreamCreate());
  KilnVulkanStats stats;
  kilnVulkanGetStats(&stats);
  std::fprintf(stderr, "robust %d\n", int(stats.robustBufferAccess));
  std::exit(stats.robustBufferAccess >= 1 ? 0 : 1);
}

/// Launches raw SPIR-V kernel "main" with one pointer-size pair over
/// `elements` words, `groups` workgroups of `block` invocations.
void launchRaw(const uint32_t *words, size_t bytes, intptr_t groups,
               intptr_t block, size_t elements) {
  void *fn = mgpuModuleGetFunction(mgpuModuleLoad(words, bytes), "main");
  std::vector<uint32_t> host(elements);
  void *ptr = host.data();
  int64_t size = host.size() * 4;
  void *params[2] = {&ptr, &size};
  mgpuLaunchKernel(fn, groups, 1, 1, block, 1, 1, 0, nullptr, params, nullptr,
                   2);
}

/// A kernel with more workgroup memory than any device has, as raw SPIR-V:
/// no container says how much it takes, so only the validation layer can
/// tell.
void launchWithValidationError() {
  setenv("KILN_VULKAN_VALIDATION", "1", 1);
  launchRaw(kBigShared, sizeof(kBigShared), 4, 1, 4);
}

/// strided_store as raw SPIR-V, launched with one pointer-size pair.
void launchRawStridedStore() {
  launchRaw(kStridedStore, sizeof(kStridedStore), 1, 64, 64);
}

/// Loads the printing kernel and launches it on {7, 9} with stdout sent to
/// stderr (where EXPECT_EXIT looks); exits 0 when both elements were
/// incremented.
void launchPrinting(bool deviceFirst) {
  dup2(2, 1);
  if (deviceFirst)
    mgpuStreamDestroy(mgpuStreamCreate());
  std::vector<uint8_t> bytes =
      container(kPrint, std::size(kPrint), 1, 0, memrefArg(0, kNoPushConstant));
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  std::vector<int32_t> host = {7, 9};
  MemRef1D m{host.data(), host.data(), 0, 2, 1};
  launch(fn, 2, 1, m);
  std::fflush(stdout);
  std::exit(host[0] == 8 && host[1] == 10 ? 0 : 1);
}

/// Seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Runs the spinning kernel over `groups` workgroups on its own stream and
/// waits for it; returns the seconds it took.
double spin(void *fn, std::vector<uint32_t> &data, intptr_t groups) {
  auto start = std::chrono::steady_clock::now();
  MemRef1D m{data.data(), data.data(), 0, int64_t(data.size()), 1};
  void *stream = mgpuStreamCreate();
  mgpuLaunchKernel(fn, groups, 1, 1, 64, 1, 1, 0, stream, m.params, nullptr, 5);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  return secondsSince(start);
}

class VulkanRuntime : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(VulkanRuntime, StridedOffsetViewOfHostMemory) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  void *module = mgpuModuleLoad(bytes.data(), bytes.size());
  void *fn = mgpuModuleGetFunction(module, "main");
  // An aligned pointer 4 bytes into the allocation (not a multiple of the
  // device's storage-buffer offset alignment), offset 3, stride 5: the
  // runtime binds an aligned range and shifts the offset it pushes.
  std::vector<int32_t> host(80, 0);
  MemRef1D m{host.data(), host.data() + 1, 3, 10, 5};
  launch(fn, 1, 64, m);
  for (int i = 0; i < 80; ++i) {
    int j = i - 1 - 3;
    int expected = j >= 0 && j % 5 == 0 && j / 5 < 10 ? j / 5 + 1 : 0;
    EXPECT_EQ(host[i], expected) << "element " << i;
  }
  mgpuModuleUnload(module);
}

TEST_F(VulkanRuntime, NegativeStrideView) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  // A reversed view: offset 19, stride -2 covers elements 19, 17, ..., 1.
  std::vector<int32_t> host(20, 0);
  MemRef1D m{host.data(), host.data(), 19, 10, -2};
  launch(fn, 1, 64, m);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(host[i], i % 2 == 1 ? (19 - i) / 2 + 1 : 0) << "element " << i;
}

TEST_F(VulkanRuntime, DeviceMemoryAllocCopyMemset) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  const int n = 64;
  auto *dev = static_cast<int32_t *>(mgpuMemAlloc(n * 4, nullptr, false));
  ASSERT_NE(dev, nullptr);
  mgpuMemset32(dev, 7, n, nullptr);
  // A view into the middle of the allocation: 8 elements in, stride 3.
  MemRef1D m{dev, dev + 8, 0, 16, 3};
  launch(fn, 1, 64, m);
  std::vector<int32_t> host(n, -1);
  mgpuMemcpy(host.data(), dev, n * 4, nullptr);
  for (int i = 0; i < n; ++i) {
    int j = i - 8;
    int expected = j >= 0 && j % 3 == 0 && j / 3 < 16 ? j / 3 + 1 : 7;
    EXPECT_EQ(host[i], expected) << "element " << i;
  }
  // Copy host -> device -> host again, through a 16-bit memset in between.
  std::vector<int32_t> input(n);
  for (int i = 0; i < n; ++i)
    input[i] = i * i;
  mgpuMemset16(dev, 0xFFFF, 2 * n, nullptr);
  mgpuMemcpy(dev, input.data(), n * 4, nullptr);
  mgpuMemcpy(host.data(), dev, n * 4, nullptr);
  EXPECT_EQ(host, input);
  mgpuMemFree(dev, nullptr);
}

TEST_F(VulkanRuntime, CopiesThroughTheKeptStagingBuffer) {
  REQUIRE_DEVICE();
  // Just over one 64 MiB piece: the copy goes in two, through one staging
  // buffer that later copies, small ones at odd offsets, reuse.
  const size_t n = (size_t(64) << 20) / 4 + 1000;
  auto *dev = static_cast<int32_t *>(mgpuMemAlloc(n * 4, nullptr, false));
  ASSERT_NE(dev, nullptr);
  std::vector<int32_t> input(n), output(n, 0);
  for (size_t i = 0; i < n; ++i)
    input[i] = int32_t(i * 7 + 1);
  KilnVulkanStats before, after;
  kilnVulkanGetStats(&before);
  mgpuMemcpy(dev, input.data(), n * 4, nullptr);
  mgpuMemcpy(output.data(), dev, n * 4, nullptr);
  EXPECT_TRUE(output == input) << "a copy in pieces changed the data";
  uint8_t bytes[3] = {0xAB, 0xCD, 0xEF};
  mgpuMemcpy(reinterpret_cast<uint8_t *>(dev) + 4 * n - 5, bytes, 3, nullptr);
  uint8_t back[5] = {};
  mgpuMemcpy(back, reinterpret_cast<uint8_t *>(dev) + 4 * n - 6, 5, nullptr);
  const uint8_t *last = reinterpret_cast<const uint8_t *>(&input[n - 2]) + 2;
  EXPECT_EQ(back[0], last[0]);
  EXPECT_EQ(back[1], 0xAB);
  EXPECT_EQ(back[2], 0xCD);
  EXPECT_EQ(back[3], 0xEF);
  EXPECT_EQ(back[4], reinterpret_cast<const uint8_t *>(&input[n - 1])[2]);
  // Every copy staged where gpu.alloc memory is device-local (a GPU);
  // none where the device's memory is host-visible (lavapipe: copied on the
  // host).
  kilnVulkanGetStats(&after);
  uint64_t staged = after.stagedCopies - before.stagedCopies;
  EXPECT_TRUE(staged == 0 || staged == 4) << staged << " staged copies";
  mgpuMemFree(dev, nullptr);
}

TEST_F(VulkanRuntime, OnePipelineForTenThousandLaunches) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = incrementModule();
  KilnVulkanStats before;
  kilnVulkanGetStats(&before);
  std::vector<int32_t> host(4, 0);
  MemRef1D m{host.data(), host.data(), 0, 4, 1};
  for (int i = 0; i < 10000; ++i) {
    // What the JIT host does per launch: look the kernel up, launch, sync.
    void *module = mgpuModuleLoad(bytes.data(), bytes.size());
    launch(mgpuModuleGetFunction(module, "main"), 4, 1, m);
    mgpuModuleUnload(module);
  }
  KilnVulkanStats after;
  kilnVulkanGetStats(&after);
  // At most one: none when an earlier test (in a shuffled order) made it.
  EXPECT_LE(after.pipelines - before.pipelines, 1u);
  EXPECT_LE(after.shaderModules - before.shaderModules, 1u);
  EXPECT_EQ(after.launches - before.launches, 10000u);
  EXPECT_LE(after.descriptorPools - before.descriptorPools, 2u);
  EXPECT_EQ(after.instances, 1u);
  EXPECT_EQ(after.devices, 1u);
  for (int v : host)
    EXPECT_EQ(v, 10000);
}

TEST_F(VulkanRuntime, RawSPIRVTakesPointerSizePairs) {
  REQUIRE_DEVICE();
  void *module = mgpuModuleLoad(kIncrement, sizeof(kIncrement));
  void *fn = mgpuModuleGetFunction(module, "main");
  std::vector<int32_t> host(8, 41);
  void *ptr = host.data();
  int64_t size = host.size() * 4;
  void *params[2] = {&ptr, &size};
  void *stream = mgpuStreamCreate();
  mgpuLaunchKernel(fn, 8, 1, 1, 1, 1, 1, 0, stream, params, nullptr, 2);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  for (int v : host)
    EXPECT_EQ(v, 42);
}

TEST_F(VulkanRuntime, StagingWithoutHostImport) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(stageWithoutImport(), ::testing::ExitedWithCode(0), "staged-ok");
}

TEST_F(VulkanRuntime, RobustBufferAccessOnlyWhenAskedFor) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(openRobust(), ::testing::ExitedWithCode(0), "robust [12]");
  mgpuStreamDestroy(mgpuStreamCreate());
  KilnVulkanStats stats;
  kilnVulkanGetStats(&stats);
  EXPECT_EQ(stats.robustBufferAccess, 0u);
}

TEST_F(VulkanRuntime, ModuleThatPrintsTurnsDebugPrintfOn) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(launchPrinting(false), ::testing::ExitedWithCode(0),
              "kiln-print 7");
  EXPECT_EXIT(launchPrinting(false), ::testing::ExitedWithCode(0),
              "kiln-print 9");
}

TEST_F(VulkanRuntime, ModuleThatPrintsAfterTheDeviceIsAnError) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(launchPrinting(true), ::testing::ExitedWithCode(1),
              "it prints \\(gpu.printf\\), but the Vulkan instance was "
              "created before it was loaded, without debug printf; set "
              "KILN_VULKAN_PRINTF=1");
  setenv("KILN_VULKAN_PRINTF", "1", 1);
  EXPECT_EXIT(launchPrinting(true), ::testing::ExitedWithCode(0),
              "kiln-print 7");
  setenv("KILN_VULKAN_PRINTF", "0", 1);
  EXPECT_EXIT(launchPrinting(true), ::testing::ExitedWithCode(0), "");
  unsetenv("KILN_VULKAN_PRINTF");
}

/// The print shader with its format's "%d" made `conversion`.
std::vector<uint32_t> printWithConversion(const char *conversion) {
  std::vector<uint32_t> words(std::begin(kPrint), std::end(kPrint));
  auto *bytes = reinterpret_cast<char *>(words.data());
  size_t size = words.size() * 4;
  const char format[] = "kiln-print %d";
  char *at = std::search(bytes, bytes + size, format, format + 13);
  EXPECT_NE(at, bytes + size);
  if (at != bytes + size)
    std::memcpy(at + 11, conversion, 2);
  return words;
}

// Debug printf formats are checked at load as the compiler checks them:
// the validation layer hands them to snprintf, where %s would read and %n
// write memory that is not there. Refused before any driver sees them.
TEST_F(VulkanRuntime, ModuleWithAnUnsafePrintfFormatIsAnError) {
  REQUIRE_DEVICE();
  kiln::rt::Runtime &rt = *kilnVulkanRuntime();
  for (const char *conversion : {"%s", "%n", "%p", "*d"}) {
    std::vector<uint32_t> words = printWithConversion(conversion);
    auto module = rt.loadModule(words.data(), words.size() * 4);
    ASSERT_FALSE(bool(module)) << conversion;
    EXPECT_NE(
        module.error().message().find("its debug printf format \"kiln-print "),
        std::string::npos)
        << module.error().message();
  }
  std::vector<uint32_t> twice = printWithConversion("%%");
  auto module = rt.loadModule(twice.data(), twice.size() * 4);
  ASSERT_FALSE(bool(module));
  EXPECT_NE(module.error().message().find("format has 0 conversions for 1 "
                                          "values"),
            std::string::npos)
      << module.error().message();
}

// A thread waiting for a long kernel does not hold the runtime's lock: a
// second thread allocates, loads a module and builds a pipeline while the
// kernel runs, and finishes first.
TEST_F(VulkanRuntime, WaitingThreadDoesNotBlockOthers) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes =
      container(kSpin, std::size(kSpin), 64, 0, memrefArg(0, kNoPushConstant));
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  // Grow the grid until one launch takes a second (lavapipe caps the
  // iterations; a GPU gets more of them).
  KilnVulkanDeviceInfo info;
  kilnVulkanGetDeviceInfo(&info);
  uint32_t iterations = info.isCPU ? 60000u : 4000000u;
  intptr_t groups = 16;
  std::vector<uint32_t> data;
  double seconds = 0;
  for (;;) {
    data.assign(1 + groups * 64, 0);
    data[0] = iterations;
    seconds = spin(fn, data, groups);
    if (seconds >= 1.0 || groups >= 65535)
      break;
    groups = std::min<intptr_t>(65535, groups * std::max(2.0, 1.5 / seconds));
  }
  ASSERT_GE(seconds, 0.25) << "the kernel is too fast on this device to test";

  std::atomic<bool> started{false};
  std::chrono::steady_clock::time_point start, longDone, otherDone;
  std::thread longThread([&] {
    start = std::chrono::steady_clock::now();
    started = true;
    spin(fn, data, groups);
    longDone = std::chrono::steady_clock::now();
  });
  while (!started)
    std::this_thread::yield();
  // Let the launch reach its wait.
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds / 10));
  void *device = mgpuMemAlloc(1 << 20, nullptr, false);
  std::vector<uint8_t> other = incrementModule();
  EXPECT_NE(
      mgpuModuleGetFunction(mgpuModuleLoad(other.data(), other.size()), "main"),
      nullptr);
  otherDone = std::chrono::steady_clock::now();
  longThread.join();
  // (Freeing waits for the work already submitted, as cuMemFree does.)
  mgpuMemFree(device, nullptr);
  EXPECT_LT(otherDone, longDone)
      << "the other thread finished "
      << std::chrono::duration<double>(otherDone - start).count()
      << " s after the long launch began, which took "
      << std::chrono::duration<double>(longDone - start).count() << " s";
  uint32_t x = 5;
  for (uint32_t i = 0; i < iterations; ++i)
    x = x * 1664525u + 1013904223u;
  EXPECT_EQ(data[1 + 5], x);
}

TEST_F(VulkanRuntime, TruncatedContainerIsAnError) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  EXPECT_EXIT(mgpuModuleLoad(bytes.data(), bytes.size() / 2),
              ::testing::ExitedWithCode(1),
              "kiln-vulkan: cannot load GPU module");
}

TEST_F(VulkanRuntime, ContainerThatDisagreesWithItsSPIRVIsAnError) {
  REQUIRE_DEVICE();
  // The shader's LocalSize is 64; the container says 32.
  std::vector<uint8_t> wrongSize = container(
      kStridedStore, std::size(kStridedStore), 32, 12, memrefArg(0, 0));
  EXPECT_EXIT(mgpuModuleLoad(wrongSize.data(), wrongSize.size()),
              ::testing::ExitedWithCode(1),
              "container gives kernel 'main' workgroup size \\(32, 1, 1\\) "
              "but its SPIR-V \\(64, 1, 1\\)");
  // The buffer said to be at binding 1: the driver would be given a layout
  // without the shader's binding 0 (lavapipe crashed in pipeline creation).
  std::vector<uint8_t> wrongBinding = container(
      kStridedStore, std::size(kStridedStore), 64, 12, memrefArg(1, 0));
  EXPECT_EXIT(mgpuModuleLoad(wrongBinding.data(), wrongBinding.size()),
              ::testing::ExitedWithCode(1),
              "kiln-vulkan: cannot load GPU module: its container's argument "
              "table for kernel 'main' disagrees with its SPIR-V: it uses the "
              "resource at \\(set 0, binding 0\\), which no argument is "
              "bound at");
  // Raw SPIR-V that reads push constants, which a raw launch does not give.
  EXPECT_EXIT(launchRawStridedStore(), ::testing::ExitedWithCode(1),
              "raw SPIR-V kernel 'main' launched with 1 pointer-size pairs "
              ".*: it reads push constants");
}

TEST_F(VulkanRuntime, GarbageIsAnError) {
  REQUIRE_DEVICE();
  const char garbage[] = "this is not a GPU module at all";
  EXPECT_EXIT(mgpuModuleLoad(garbage, sizeof(garbage)),
              ::testing::ExitedWithCode(1),
              "neither a Kiln container nor SPIR-V");
}

TEST_F(VulkanRuntime, CorruptSPIRVInstructionStreamIsAnError) {
  REQUIRE_DEVICE();
  std::vector<uint32_t> words(std::begin(kIncrement), std::end(kIncrement));
  words[5] = 0xFFFF0000u | (words[5] & 0xFFFF); // A huge word count.
  EXPECT_EXIT(mgpuModuleLoad(words.data(), words.size() * 4),
              ::testing::ExitedWithCode(1), "runs past the end of the module");
}

TEST_F(VulkanRuntime, UnknownKernelNamesTheKernelsThereAre) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  EXPECT_EXIT(
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "nope"),
      ::testing::ExitedWithCode(1),
      "no compute entry point 'nope'; it has: main");
}

TEST_F(VulkanRuntime, BlockSizeMustMatchTheCompiledWorkgroupSize) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  EXPECT_EXIT(
      launchStrided(bytes, 32, 5), ::testing::ExitedWithCode(1),
      "kernel 'main' was compiled for workgroup size \\(64, 1, 1\\) but is "
      "launched with block size \\(32, 1, 1\\)");
}

TEST_F(VulkanRuntime, ParameterCountMustMatchTheArgumentTable) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = stridedModule();
  EXPECT_EXIT(launchStrided(bytes, 64, 3), ::testing::ExitedWithCode(1),
              "kernel 'main' takes 5 parameters .* but the launch passed 3");
}

TEST_F(VulkanRuntime, WorkgroupSizeAboveTheDeviceLimitIsAnError) {
  REQUIRE_DEVICE();
  // The SPIR-V and the container agree on 2^20 in x: the LocalSize
  // execution mode and the constant 64 that glslc's WorkgroupSize built-in
  // (which wins over LocalSize) is made of.
  std::vector<uint32_t> words(std::begin(kStridedStore),
                              std::end(kStridedStore));
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
    uint32_t op = words[i] & 0xFFFF, count = words[i] >> 16;
    if (op == 16 && count == 6 && words[i + 2] == 17)
      words[i + 3] = 1u << 20; // OpExecutionMode LocalSize
    if (op == 43 && count == 4 && words[i + 3] == 64)
      words[i + 3] = 1u << 20; // OpConstant 64
  }
  std::vector<uint8_t> bytes =
      container(words.data(), words.size(), 1u << 20, 12, memrefArg(0, 0));
  EXPECT_EXIT(
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main"),
      ::testing::ExitedWithCode(1),
      "kernel 'main' has workgroup size 1048576 in x, above device "
      "'.*''s limit of [0-9]+ \\(maxComputeWorkGroupSize\\)");
}

TEST_F(VulkanRuntime, DeviceNameThatDoesNotExistIsAnError) {
  EXPECT_EXIT(
      allocOnDevice("no-such-device-anywhere"), ::testing::ExitedWithCode(1),
      "kiln-vulkan: (no Vulkan device named 'no-such-device-anywhere'|cannot "
      "open the Vulkan loader|no Vulkan device found|vkCreateInstance)");
}

TEST_F(VulkanRuntime, ValidationMessagesAreFatal) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(launchWithValidationError(), ::testing::ExitedWithCode(1),
              "kiln-vulkan: validation error: .*Workgroup");
}

/// What the C++ interface returned, for a failure message.
std::string describe(const kiln::rt::Status &status) {
  if (!status)
    return "success";
  return std::string(kiln::rt::errorKindName(status.kind())) + " at " +
         status.where() + ": " + status.message();
}

/// Drives every kind of refused call through the C++ interface in one
/// process, then uses the runtime for real work: errors come back, and the
/// runtime stays usable. Run under the validation layer, whose object
/// tracker reports at exit any Vulkan object an error path left behind (the
/// runtime then exits 1). Says "embedding-ok" and exits 0 when all holds.
void embedWithErrors() {
  setenv("KILN_VULKAN_VALIDATION", "1", 1);
  using kiln::rt::ErrorKind;
  kiln::rt::Runtime &rt = *kilnVulkanRuntime();
  bool ok = std::strcmp(rt.backend(), "vulkan") == 0;
  auto expect = [&](const kiln::rt::Status &status, ErrorKind kind,
                    const char *text) {
    bool good = status && status.kind() == kind &&
                status.message().find(text) != std::string::npos &&
                status.where().find(".cpp:") != std::string::npos;
    if (!good)
      std::fprintf(stderr, "unexpected: %s (wanted '%s')\n",
                   describe(status).c_str(), text);
    ok &= good;
  };

  const char garbage[] = "this is not a GPU module at all";
  auto bad = rt.loadModule(garbage, sizeof(garbage));
  expect(bad.error(), ErrorKind::InvalidArgument,
         "neither a Kiln container nor SPIR-V");
  std::vector<uint8_t> bytes = stridedModule();
  expect(rt.loadModule(bytes.data(), bytes.size() / 2).error(),
         ErrorKind::InvalidArgument, "cannot load GPU module");

  auto module = rt.loadModule(bytes.data(), bytes.size());
  ok &= bool(module);
  expect(rt.getFunction(*module, "nope").error(), ErrorKind::InvalidArgument,
         "no compute entry point 'nope'; it has: main");
  auto fn = rt.getFunction(*module, "main");
  ok &= bool(fn);
  std::vector<int32_t> host(40, 0);
  MemRef1D m{host.data(), host.data(), 1, 8, 4};
  expect(rt.launch(*fn, {1, 1, 1}, {32, 1, 1}, 0, nullptr, m.params, 5),
         ErrorKind::InvalidArgument,
         "kernel 'main' was compiled for workgroup size (64, 1, 1)");
  expect(rt.launch(*fn, {0, 1, 1}, {64, 1, 1}, 0, nullptr, m.params, 5),
         ErrorKind::InvalidArgument, "launched with 0 workgroups in x");
  expect(rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, m.params, 3),
         ErrorKind::InvalidArgument, "takes 5 parameters");
  expect(rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 128, nullptr, m.params, 5),
         ErrorKind::InvalidArgument, "128 bytes of dynamic shared memory");

  // More memory than any device has: refused by the driver, named with its
  // size, and what was created on the way is released.
  auto huge = rt.allocate(uint64_t(1) << 50, false);
  expect(huge.error(), ErrorKind::OutOfMemory,
         "cannot allocate 1125899906842624 bytes (1048576.0 GiB) for an "
         "mgpuMemAlloc (gpu.alloc)");
  if (!huge)
    ok &= !huge.error().info().call.empty() &&
          huge.error().info().result.rfind("VK_ERROR_", 0) == 0;
  int notOurs = 0;
  expect(rt.free(&notOurs), ErrorKind::InvalidArgument,
         "gpu.dealloc of a pointer that gpu.alloc did not return");
  expect(rt.deviceCopy(host.data(), host.data() + 8, 16).error(),
         ErrorKind::InvalidArgument, "both sides must be non-empty ranges");

  // Still usable: a launch on host memory and one on device memory.
  ok &= rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, m.params, 5).ok();
  ok &= rt.synchronize(nullptr).ok();
  for (int i = 0; i < 40; ++i)
    ok &= host[i] ==
          ((i - 1) % 4 == 0 && i >= 1 && (i - 1) / 4 < 8 ? (i - 1) / 4 + 1 : 0);
  auto device = rt.allocate(40 * sizeof(int32_t), false);
  auto stream = rt.createStream();
  ok &= device && stream;
  if (device && stream) {
    std::vector<int32_t> zeros(40, 0), back(40, -1);
    MemRef1D d{*device, *device, 1, 8, 4};
    ok &= rt.copy(*device, zeros.data(), 40 * 4, *stream).ok();
    ok &= rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, *stream, d.params, 5).ok();
    ok &= rt.copy(back.data(), *device, 40 * 4, *stream).ok();
    ok &= back == host;

    // Ranges are checked against the allocation they reach into: past its
    // end, across it, and wrapping around the address space; nothing is
    // written (a SIGSEGV or a heap overflow before).
    std::vector<int32_t> big(1000, 7);
    expect(rt.copy(*device, big.data(), big.size() * 4, nullptr),
           ErrorKind::InvalidArgument,
           "gpu.memcpy's destination of 4000 bytes at offset 0 of a 160-byte "
           "device allocation (gpu.alloc) reaches past its bounds");
    expect(
        rt.copy(big.data(), static_cast<char *>(*device) + 100, 100, nullptr),
        ErrorKind::InvalidArgument,
        "gpu.memcpy's source of 100 bytes at offset 100 of a 160-byte");
    expect(rt.copy(*device, big.data(), SIZE_MAX - 8, nullptr),
           ErrorKind::InvalidArgument, "wraps around the address space");
    expect(rt.fill32(static_cast<char *>(*device) + 8, 0, 100, nullptr),
           ErrorKind::InvalidArgument,
           "gpu.memset of 400 bytes at offset 8 of a 160-byte device "
           "allocation (gpu.alloc) reaches past its bounds");
    expect(rt.fill32(*device, 0, SIZE_MAX / 2, nullptr),
           ErrorKind::InvalidArgument, "overflows a size");
    expect(rt.deviceCopy(*device, *device, 4000).error(),
           ErrorKind::InvalidArgument,
           "kilnVulkanDeviceCopy's destination of 4000 bytes");
    // A host memref that spans an allocation it does not start in.
    MemRef1D across{big.data(), big.data(), 0, 1000, 1};
    int32_t *inside = static_cast<int32_t *>(*device);
    if (reinterpret_cast<uintptr_t>(big.data()) <
        reinterpret_cast<uintptr_t>(inside)) {
      int64_t n = (reinterpret_cast<uintptr_t>(inside) -
                   reinterpret_cast<uintptr_t>(big.data())) /
                      4 +
                  4;
      across.size = n;
      expect(
          rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, across.params, 5),
          ErrorKind::InvalidArgument, "kernel 'main' argument 0:");
    }
    ok &= back == host; // the failed copies wrote nothing back
    std::vector<int32_t> after(40, -1);
    ok &= rt.copy(after.data(), *device, 40 * 4, nullptr).ok();
    ok &= after == host;

    // Handles are looked up: a destroyed stream, a function or module the
    // runtime did not return, and a null parameter array are errors.
    ok &= rt.destroyStream(*stream).ok();
    expect(rt.synchronize(*stream), ErrorKind::InvalidArgument,
           "mgpuStreamSynchronize on a stream that mgpuStreamCreate did not "
           "return (or that was destroyed)");
    expect(rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, *stream, d.params, 5),
           ErrorKind::InvalidArgument, "mgpuLaunchKernel on a stream");
    int garbage[64] = {};
    expect(rt.launch(garbage, {1, 1, 1}, {64, 1, 1}, 0, nullptr, d.params, 5),
           ErrorKind::InvalidArgument,
           "mgpuLaunchKernel with a function that mgpuModuleGetFunction did "
           "not return");
    expect(rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, nullptr, 5),
           ErrorKind::InvalidArgument, "with a null parameter array");
    expect(rt.unloadModule(garbage), ErrorKind::InvalidArgument,
           "mgpuModuleUnload of a module that mgpuModuleLoad did not return");
    expect(rt.getFunction(garbage, "main").error(), ErrorKind::InvalidArgument,
           "mgpuModuleGetFunction of a module");
    ok &= rt.free(*device).ok();
  }
  ok &= rt.unloadModule(*module).ok();
  std::fprintf(stderr, ok ? "embedding-ok\n" : "embedding-wrong\n");
  // Exit handlers tear the runtime down under the validation layer.
  std::exit(ok ? 0 : 1);
}

/// An identity-layout dynamic memref (ArgKind::IdentityMemRef) is bound at
/// its first element and its pushed offset is 0, whatever the descriptor's
/// offset; one whose first element is not at the device's storage-buffer
/// offset alignment is refused, naming the limit, and so is one that is
/// not at its argument's base alignment. Says "identity-ok" and exits 0
/// when all holds.
void bindIdentityMemRefs() {
  setenv("KILN_VULKAN_VALIDATION", "1", 1);
  kiln::rt::Runtime &rt = *kilnVulkanRuntime();
  ArgInfo arg = memrefArg(0, 0);
  arg.kind = ArgKind::IdentityMemRef;
  std::vector<uint8_t> bytes =
      container(kStridedStore, std::size(kStridedStore), 64, 12, arg);
  auto module = rt.loadModule(bytes.data(), bytes.size());
  auto fn = module ? rt.getFunction(*module, "main")
                   : kiln::rt::Expected<void *>(module.takeError());
  if (!fn) {
    std::fprintf(stderr, "%s\n", describe(fn.error()).c_str());
    std::exit(2);
  }
  bool ok = true;
  // The strided_store kernel writes i + 1 at pushed offset + i * stride.
  auto run = [&](int32_t *aligned, int64_t offset, std::vector<int32_t> &host,
                 int first) {
    std::fill(host.begin(), host.end(), 0);
    MemRef1D m{host.data(), aligned, offset, 8, 1};
    kiln::rt::Status launched =
        rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, m.params, 5);
    if (!launched.ok())
      return launched;
    KILN_TRY(rt.synchronize(nullptr));
    for (int i = 0; i < int(host.size()); ++i) {
      int expected = i >= first && i < first + 8 ? i - first + 1 : 0;
      if (host[i] != expected) {
        std::fprintf(stderr, "element %d is %d, expected %d\n", i, host[i],
                     expected);
        ok = false;
      }
    }
    return kiln::rt::Status::success();
  };
  // new[] aligns to 16 bytes: 4 elements in is 16-byte aligned, as
  // lavapipe's and NVIDIA's minStorageBufferOffsetAlignment ask.
  std::vector<int32_t> host(32);
  ok &= run(host.data() + 4, 0, host, 4).ok();
  // A descriptor offset the type says is 0 but is not: still the first
  // element.
  ok &= run(host.data(), 4, host, 4).ok();
  // One element in: refused where the device asks for more than 4 bytes
  // of alignment (as --list-devices says), run correctly otherwise.
  auto devices = rt.describeDevices();
  const char *key = "storage buffer offset alignment: ";
  size_t at = devices ? devices->find(key) : std::string::npos;
  unsigned long alignment =
      at == std::string::npos
          ? 0
          : std::strtoul(devices->c_str() + at + std::strlen(key), nullptr, 10);
  ok &= alignment > 0;
  kiln::rt::Status misaligned = run(host.data() + 1, 0, host, 1);
  ok &= bool(misaligned) == (alignment > 4);
  if (misaligned) {
    std::fprintf(stderr, "%s\n", describe(misaligned).c_str());
    ok &= misaligned.kind() == kiln::rt::ErrorKind::Unsupported &&
          misaligned.message().find(
              "starts at an address that is not a multiple of the device's "
              "minStorageBufferOffsetAlignment") != std::string::npos &&
          misaligned.message().find("identity layout is bound at its first "
                                    "element") != std::string::npos;
  }
  ok &= rt.unloadModule(*module).ok();

  // A kernel that reads its buffer as vectors of 32 bytes: its first
  // element must be 32-byte aligned, whatever the device allows.
  arg.baseAlignment = 32;
  bytes = container(kStridedStoreVec, std::size(kStridedStoreVec), 64, 12, arg);
  module = rt.loadModule(bytes.data(), bytes.size());
  fn = module ? rt.getFunction(*module, "main")
              : kiln::rt::Expected<void *>(module.takeError());
  ok &= bool(fn);
  if (fn) {
    alignas(64) int32_t aligned[32];
    std::vector<int32_t> copy(32);
    MemRef1D m{aligned, aligned, 0, 8, 1};
    ok &= rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, m.params, 5).ok();
    ok &= rt.synchronize(nullptr).ok();
    MemRef1D off{aligned, aligned + 4, 0, 8, 1};
    kiln::rt::Status refused =
        rt.launch(*fn, {1, 1, 1}, {64, 1, 1}, 0, nullptr, off.params, 5);
    std::fprintf(stderr, "%s\n", describe(refused).c_str());
    ok &= refused && refused.kind() == kiln::rt::ErrorKind::InvalidArgument &&
          refused.message().find(
              "kernel 'main' argument 0 reads its buffer as vectors of 32 "
              "bytes, so its first element must be a multiple of 32 bytes, "
              "but it is 16 bytes past one") != std::string::npos;
    ok &= rt.unloadModule(*module).ok();
  }
  std::fprintf(stderr, ok ? "identity-ok\n" : "identity-wrong\n");
  std::exit(ok ? 0 : 1);
}

TEST_F(VulkanRuntime, IdentityMemRefIsBoundAtItsFirstElement) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(bindIdentityMemRefs(), ::testing::ExitedWithCode(0),
              "identity-ok");
}

TEST_F(VulkanRuntime, EmbeddingInterfaceReturnsErrorsAndStaysUsable) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(embedWithErrors(), ::testing::ExitedWithCode(0), "embedding-ok");
}

/// A launch that outlasts KILN_TIMEOUT comes back as a Timeout error naming
/// the kernel, and every later call fails with it, through the C++
/// interface. Exits at once (the device still runs the kernel).
void embedTimeout() {
  setenv("KILN_TIMEOUT", "0.2", 1);
  using kiln::rt::ErrorKind;
  kiln::rt::Runtime &rt = *kilnVulkanRuntime();
  std::vector<uint8_t> bytes =
      container(kSpin, std::size(kSpin), 64, 0, memrefArg(0, kNoPushConstant));
  auto module = rt.loadModule(bytes.data(), bytes.size());
  auto fn = module ? rt.getFunction(*module, "main")
                   : kiln::rt::Expected<void *>(module.takeError());
  if (!fn) {
    std::fprintf(stderr, "%s\n", describe(fn.error()).c_str());
    std::_Exit(2);
  }
  intptr_t groups = 65535;
  std::vector<uint32_t> data(1 + groups * 64, 0);
  data[0] = 4000000u;
  MemRef1D m{data.data(), data.data(), 0, int64_t(data.size()), 1};
  bool ok =
      rt.launch(*fn, {groups, 1, 1}, {64, 1, 1}, 0, nullptr, m.params, 5).ok();
  kiln::rt::Status waited = rt.synchronize(nullptr);
  ok &= waited && waited.kind() == ErrorKind::Timeout &&
        waited.message().find("kernel 'main' did not complete within 0.2 s "
                              "(KILN_TIMEOUT)") != std::string::npos &&
        waited.info().call == "vkWaitForFences";
  auto later = rt.allocate(16, false);
  ok &= !later && later.error().kind() == ErrorKind::Timeout;
  std::fprintf(stderr, "%s\n%s\n", describe(waited).c_str(),
               ok ? "timeout-ok" : "timeout-wrong");
  std::fflush(stderr);
  std::_Exit(ok ? 0 : 1);
}

TEST_F(VulkanRuntime, EmbeddingInterfaceReturnsTimeouts) {
  REQUIRE_DEVICE();
  EXPECT_EXIT(embedTimeout(), ::testing::ExitedWithCode(0), "timeout-ok");
}

struct TimedLaunch {
  std::string kernel;
  double us;
};

void collect(void *user, const char *kernel, double us) {
  static_cast<std::vector<TimedLaunch> *>(user)->push_back({kernel, us});
}

TEST_F(VulkanRuntime, TimingCallbackReceivesEachLaunch) {
  REQUIRE_DEVICE();
  std::vector<uint8_t> bytes = incrementModule();
  void *fn =
      mgpuModuleGetFunction(mgpuModuleLoad(bytes.data(), bytes.size()), "main");
  std::vector<int32_t> host(1, 0);
  MemRef1D m{host.data(), host.data(), 0, 1, 1};
  std::vector<TimedLaunch> times;
  kilnVulkanSetTimingCallback(collect, &times);
  for (int i = 0; i < 3; ++i)
    launch(fn, 1, 1, m);
  kilnVulkanSetTimingCallback(nullptr, nullptr);
  launch(fn, 1, 1, m);
  EXPECT_EQ(host[0], 4);
  ASSERT_EQ(times.size(), 3u);
  for (const TimedLaunch &t : times) {
    EXPECT_EQ(t.kernel, "main");
    EXPECT_GT(t.us, 0.0); // lavapipe and GPUs have compute timestamps
  }
}

TEST_F(VulkanRuntime, DeviceCopyRunsOnTheDevice) {
  REQUIRE_DEVICE();
  const size_t n = 1 << 18;
  std::vector<uint32_t> pattern(n), back(n, 0);
  for (size_t i = 0; i < n; ++i)
    pattern[i] = uint32_t(i * 2654435761u);
  void *a = mgpuMemAlloc(n * 4, nullptr, false);
  void *b = mgpuMemAlloc(n * 4, nullptr, false);
  // Fresh device memory holds anything (under ASan, lavapipe's malloc'd
  // memory starts as 0xbe bytes): clear what the copy leaves alone.
  mgpuMemset32(b, 0, n, nullptr);
  mgpuMemcpy(a, pattern.data(), n * 4, nullptr);
  KilnVulkanStats before, after;
  kilnVulkanGetStats(&before);
  // An offset range of each allocation.
  double us = kilnVulkanDeviceCopy(static_cast<char *>(b) + 64,
                                   static_cast<char *>(a) + 64, n * 4 - 128);
  kilnVulkanGetStats(&after);
  EXPECT_GT(us, 0.0);
  mgpuMemcpy(back.data(), b, n * 4, nullptr);
  EXPECT_EQ(back[0], 0u);
  EXPECT_EQ(back[16], pattern[16]);
  EXPECT_EQ(back[n - 17], pattern[n - 17]);
  EXPECT_EQ(back[n - 1], 0u);
  EXPECT_EQ(std::memcmp(back.data() + 16, pattern.data() + 16, n * 4 - 128), 0);
  mgpuMemFree(a, nullptr);
  mgpuMemFree(b, nullptr);
}

TEST_F(VulkanRuntime, DeviceCopyOfHostMemoryIsAnError) {
  REQUIRE_DEVICE();
  std::vector<char> host(64);
  EXPECT_EXIT(
      {
        void *a = mgpuMemAlloc(64, nullptr, false);
        kilnVulkanDeviceCopy(a, host.data(), 64);
      },
      testing::ExitedWithCode(1),
      "kilnVulkanDeviceCopy: both sides must be non-empty ranges of device "
      "allocations");
}

TEST_F(VulkanRuntime, DeviceInfoDescribesTheDevice) {
  REQUIRE_DEVICE();
  KilnVulkanDeviceInfo info;
  ASSERT_EQ(kilnVulkanGetDeviceInfo(&info), 0);
  EXPECT_GT(std::strlen(info.name), 0u);
  EXPECT_GT(std::strlen(info.driver), 0u);
  EXPECT_NE(std::string(info.apiVersion).find('.'), std::string::npos);
  EXPECT_GE(info.subgroupSize, 1u);
  EXPECT_GE(info.maxWorkgroupInvocations, 128u);
  EXPECT_GE(info.maxSharedMemoryBytes, 16384u);
  EXPECT_GT(info.timestampPeriodNs, 0.0f);
}

TEST_F(VulkanRuntime, TargetEnvDescribesTheDevice) {
  REQUIRE_DEVICE();
  const char *env = kilnVulkanDeviceTargetEnv();
  ASSERT_NE(env, nullptr);
  EXPECT_EQ(std::strncmp(env, "#spirv.target_env<#spirv.vce<v1.", 32), 0)
      << env;
  EXPECT_NE(std::strstr(env, "Shader"), nullptr) << env;
  EXPECT_NE(std::strstr(env, "max_compute_workgroup_invocations = "), nullptr)
      << env;
}

} // namespace

int main(int argc, char **argv) {
  // The device probe: this binary, re-run, lists devices and exits.
  if (argc > 1 && std::strcmp(argv[1], "--list-devices-probe") == 0)
    return kilnVulkanListDevices();
  setenv("KILN_UNITTEST_SELF", argv[0], 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// The mgpu* entry points are written once for every runtime over the C++
// interface (lib/Runtime/Common/MGPU.cpp); on Vulkan the whole surface is
// there, and every handle is checked.

TEST_F(VulkanRuntime, EventHandlesAreLookedUp) {
  REQUIRE_DEVICE();
  kiln::rt::Runtime &rt = *kilnVulkanRuntime();
  kiln::rt::Expected<void *> event = rt.createEvent();
  ASSERT_TRUE(event) << event.error().message();
  EXPECT_FALSE(rt.recordEvent(*event, nullptr));
  EXPECT_FALSE(rt.streamWaitEvent(nullptr, *event));
  EXPECT_FALSE(rt.synchronizeEvent(*event));
  EXPECT_FALSE(rt.destroyEvent(*event));
  kiln::rt::Status again = rt.destroyEvent(*event);
  ASSERT_TRUE(again);
  EXPECT_NE(again.message().find("mgpuEventDestroy of an event that "
                                 "mgpuEventCreate did not return"),
            std::string::npos)
      << again.message();
  int notAnEvent = 0;
  EXPECT_TRUE(rt.synchronizeEvent(&notAnEvent));
  EXPECT_TRUE(rt.recordEvent(nullptr, nullptr));
  EXPECT_EXIT(mgpuEventDestroy(&notAnEvent), ::testing::ExitedWithCode(1),
              "kiln-vulkan: mgpuEventDestroy of an event that "
              "mgpuEventCreate did not return");
  EXPECT_EXIT(mgpuStreamWaitEvent(nullptr, &notAnEvent),
              ::testing::ExitedWithCode(1),
              "kiln-vulkan: mgpuStreamWaitEvent of an event");
}

TEST_F(VulkanRuntime, CUDAOnlyEntryPointsAreErrorsAndHostRegisterIsAccepted) {
  REQUIRE_DEVICE();
  std::vector<float> host(16);
  // Host memory is imported or staged at each launch: nothing to pin.
  mgpuMemHostRegister(host.data(), host.size() * sizeof(float));
  mgpuMemHostUnregister(host.data());
  EXPECT_EXIT(mgpuLaunchClusterKernel(nullptr, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0,
                                      nullptr, nullptr, nullptr, 0),
              ::testing::ExitedWithCode(1),
              "kiln-vulkan: mgpuLaunchClusterKernel: thread-block clusters "
              "are CUDA's; the vulkan runtime has none");
  EXPECT_EXIT(mgpuModuleLoadJIT(host.data(), 2), ::testing::ExitedWithCode(1),
              "kiln-vulkan: mgpuModuleLoadJIT: vulkan modules are binaries");
  std::vector<uint8_t> bytes = stridedModule();
  void *extra[1] = {nullptr};
  EXPECT_EXIT(
      {
        void *fn = mgpuModuleGetFunction(
            mgpuModuleLoad(bytes.data(), bytes.size()), "main");
        mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra, 0);
      },
      ::testing::ExitedWithCode(1),
      "mgpuLaunchKernel with extra launch options");
}

TEST_F(VulkanRuntime, OptionsAreSetBeforeTheInstanceExists) {
  REQUIRE_DEVICE();
  kiln::rt::Runtime &rt = *kilnVulkanRuntime();
  ASSERT_FALSE(rt.initialize());
  kiln::rt::Options options;
  options.validation = true;
  kiln::rt::Status late = rt.configure(options);
  ASSERT_TRUE(late);
  EXPECT_NE(late.message().find("options are set before it starts; its "
                                "instance exists already"),
            std::string::npos)
      << late.message();
}
