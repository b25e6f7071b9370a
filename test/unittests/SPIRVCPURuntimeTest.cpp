//===- SPIRVCPURuntimeTest.cpp - Kiln's spirv-cpu runtime -----------------===//
//
// Drives the runtime as compiled host code does: kernels written here by
// hand against kiln/Contract/SPIRVCPUABI.h (what --kiln-spirv-to-cpu emits),
// registered under the hash of a container's SPIR-V words (any few words),
// memref descriptors passed as the expanded (allocated, aligned, offset,
// sizes, strides) parameters. The C++ interface (kilnSpirvCpuRuntime)
// returns errors and is tested in process; the mgpu* entry points end the
// process and are tested with death tests. main() sets KILN_CPU_THREADS=3
// so that grids have more workgroups than workers.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/SPIRVCPURuntime.h"
#include "kiln/Contract/Container.h"
#include "kiln/Contract/SPIRVCPUABI.h"
#include "kiln/Runtime/Runtime.h"

#include "Executor.h"
#include "KernelArgs.h"
#include "Subgroup.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace kiln;
using namespace kiln::spirvcpu;
using container::ArgInfo;
using container::ArgKind;
using container::ScalarType;

namespace {

rt::Runtime &cpu() { return *kilnSpirvCpuRuntime(); }

//===----------------------------------------------------------------------===//
// Building modules and launches
//===----------------------------------------------------------------------===//

ArgInfo memrefArg(uint32_t elementBytes, uint32_t rank, uint32_t binding,
                  uint32_t pushConstantOffset = container::kNoPushConstant,
                  ArgKind kind = ArgKind::MemRef) {
  ArgInfo a;
  a.kind = kind;
  a.size = elementBytes;
  a.rank = rank;
  a.binding = container::isAddressKind(kind) ? 0 : binding;
  a.pushConstantOffset = pushConstantOffset;
  return a;
}

ArgInfo scalarArg(ScalarType type, uint32_t size, uint32_t offset) {
  ArgInfo a;
  a.kind = ArgKind::Scalar;
  a.scalarType = type;
  a.size = size;
  a.pushConstantOffset = offset;
  return a;
}

struct TestKernel {
  const KernelDesc *desc;
  KernelFn fn;
  std::vector<ArgInfo> args;
  uint32_t workgroupSize[3];
  uint32_t pushConstantSize = 0;
  bool registered = true;
};

/// A container holding `kernels`, whose SPIR-V (five words, `seed` one of
/// them) hashes to the key they are registered under.
std::vector<uint8_t> makeContainer(const std::vector<TestKernel> &kernels,
                                   uint32_t seed, uint32_t indexBits = 32) {
  container::ModuleInfo m;
  m.indexBits = indexBits;
  m.spirv = {container::kSPIRVMagic, 0x00010500, seed, 16, 0};
  uint64_t hash = hashSPIRV(m.spirv.data(), m.spirv.size());
  for (const TestKernel &k : kernels) {
    container::KernelInfo info;
    info.name = k.desc->name;
    std::memcpy(info.workgroupSize, k.workgroupSize,
                sizeof(info.workgroupSize));
    info.pushConstantSize = k.pushConstantSize;
    info.args = k.args;
    m.kernels.push_back(info);
    if (k.registered) {
      __kiln_spirv_cpu_register(hash, k.desc, k.fn);
      __kiln_spirv_cpu_register(hash, k.desc, k.fn); // Twice is harmless.
    }
  }
  return container::write(m);
}

/// Loads a one-kernel module and returns its function.
void *loadKernel(const TestKernel &kernel, uint32_t seed,
                 uint32_t indexBits = 32) {
  std::vector<uint8_t> bytes = makeContainer({kernel}, seed, indexBits);
  auto module = cpu().loadModule(bytes.data(), bytes.size());
  EXPECT_TRUE(bool(module)) << module.error().message();
  if (!module)
    return nullptr;
  auto function = cpu().getFunction(*module, kernel.desc->name);
  EXPECT_TRUE(bool(function)) << function.error().message();
  return function ? *function : nullptr;
}

/// A memref descriptor's fields, which `params` points into.
struct MemRef {
  void *allocated = nullptr, *aligned = nullptr;
  int64_t offset = 0;
  int64_t sizes[4] = {}, strides[4] = {};
  int rank = 1;

  MemRef() = default;
  MemRef(void *data, int64_t count) : allocated(data), aligned(data) {
    sizes[0] = count;
    strides[0] = 1;
  }
  void append(std::vector<void *> &params) {
    params.push_back(&allocated);
    params.push_back(&aligned);
    params.push_back(&offset);
    for (int i = 0; i < rank; ++i)
      params.push_back(&sizes[i]);
    for (int i = 0; i < rank; ++i)
      params.push_back(&strides[i]);
  }
};

rt::Status launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                  std::vector<void *> params) {
  return cpu().launch(function, grid, block, 0, nullptr, params.data(),
                      params.size());
}

template <typename T> T *resource(Invocation *inv, int index) {
  return static_cast<T *>(inv->resources[index]);
}

const ResourceDesc kOneBuffer[] = {
    {ResourceKind::StorageBuffer, 0, 0, 0, "argument 0 (memref<?xi32>)"}};
const ResourceDesc kTwoBuffers[] = {
    {ResourceKind::StorageBuffer, 0, 0, 0, "argument 0 (memref<?xi32>)"},
    {ResourceKind::StorageBuffer, 0, 1, 0, "argument 1 (memref<4x64xf32>)"}};
const char *const kSites[] = {"file.mlir:12:5", "file.mlir:14:5",
                              "file.mlir:20:7"};

//===----------------------------------------------------------------------===//
// Built-ins, threads
//===----------------------------------------------------------------------===//

constexpr int kBuiltinWords = 22;

void builtinsKernel(Invocation *inv) {
  uint32_t gx = inv->numWorkgroups[0] * inv->workgroupSize[0];
  uint32_t gy = inv->numWorkgroups[1] * inv->workgroupSize[1];
  uint32_t linear =
      inv->globalInvocationId[0] +
      gx * (inv->globalInvocationId[1] + gy * inv->globalInvocationId[2]);
  uint32_t *out = resource<uint32_t>(inv, 0) + linear * kBuiltinWords;
  for (int d = 0; d < 3; ++d) {
    out[d] = inv->globalInvocationId[d];
    out[3 + d] = inv->localInvocationId[d];
    out[6 + d] = inv->workgroupId[d];
    out[9 + d] = inv->numWorkgroups[d];
    out[12 + d] = inv->workgroupSize[d];
  }
  out[15] = inv->localInvocationIndex;
  out[16] = inv->subgroupId;
  out[17] = inv->subgroupSize;
  out[18] = inv->numSubgroups;
  out[19] = inv->subgroupLocalInvocationId;
  // Private memory starts zeroed; workgroup memory is 16-byte aligned.
  uint32_t zero = 1;
  for (int i = 0; i < 32; ++i)
    zero &= inv->privateMemory[i] == 0;
  std::memset(inv->privateMemory, 0xFF, 32);
  out[20] = zero;
  out[21] = reinterpret_cast<uintptr_t>(inv->workgroupMemory) % 16;
}

void checkBuiltins(uint32_t flags, uint32_t seed) {
  // The registry keeps KernelDesc pointers, as compiled code's are global.
  static const KernelDesc plain = {kABIVersion, 0,          64,      32,
                                   1,           0,          0,       0,
                                   "builtins",  kOneBuffer, nullptr, nullptr};
  static const KernelDesc fibers = {
      kABIVersion, kUsesBarrier,      64,         32,      1,      0, 0,
      0,           "builtins_fibers", kOneBuffer, nullptr, nullptr};
  const KernelDesc &desc = flags ? fibers : plain;
  ASSERT_TRUE(flags == 0 || flags == kUsesBarrier);
  void *f = loadKernel({&desc, builtinsKernel, {memrefArg(4, 1, 0)}, {4, 2, 3}},
                       seed);
  const uint32_t grid[3] = {3, 2, 2}, block[3] = {4, 2, 3};
  const uint32_t total = 3 * 2 * 2 * 4 * 2 * 3;
  std::vector<uint32_t> out(total * kBuiltinWords, 0xDEADBEEF);
  MemRef m(out.data(), out.size());
  std::vector<void *> params;
  m.append(params);
  ASSERT_FALSE(launch(f, {3, 2, 2}, {4, 2, 3}, params));
  for (uint32_t z = 0; z < grid[2] * block[2]; ++z)
    for (uint32_t y = 0; y < grid[1] * block[1]; ++y)
      for (uint32_t x = 0; x < grid[0] * block[0]; ++x) {
        uint32_t g[3] = {x, y, z};
        uint32_t linear = x + 12 * (y + 4 * z);
        const uint32_t *o = &out[linear * kBuiltinWords];
        uint32_t local[3], group[3];
        for (int d = 0; d < 3; ++d) {
          local[d] = g[d] % block[d];
          group[d] = g[d] / block[d];
          EXPECT_EQ(o[d], g[d]);
          EXPECT_EQ(o[3 + d], local[d]);
          EXPECT_EQ(o[6 + d], group[d]);
          EXPECT_EQ(o[9 + d], grid[d]);
          EXPECT_EQ(o[12 + d], block[d]);
        }
        uint32_t index = local[0] + local[1] * 4 + local[2] * 8;
        EXPECT_EQ(o[15], index);
        EXPECT_EQ(o[16], index / 8);
        EXPECT_EQ(o[17], kSubgroupSize);
        EXPECT_EQ(o[18], 3u);
        EXPECT_EQ(o[19], index % 8);
        EXPECT_EQ(o[20], 1u) << "private memory not zeroed";
        EXPECT_EQ(o[21], 0u);
      }
}

TEST(SPIRVCPURuntime, BuiltinsOverA3DGrid) { checkBuiltins(0, 1); }

TEST(SPIRVCPURuntime, BuiltinsOverA3DGridInFibers) {
  checkBuiltins(kUsesBarrier, 2);
}

std::mutex threadMutex;
std::set<std::thread::id> threadIds;

void threadsKernel(Invocation *inv) {
  {
    std::lock_guard<std::mutex> lock(threadMutex);
    threadIds.insert(std::this_thread::get_id());
  }
  std::this_thread::sleep_for(std::chrono::microseconds(500));
  resource<uint32_t>(inv, 0)[inv->workgroupId[0]] = inv->workgroupId[0] + 1;
}

TEST(SPIRVCPURuntime, WorkgroupsRunInParallelOnTheWorkers) {
  static const KernelDesc desc = {kABIVersion, 0,          0,       0,
                                  1,           0,          0,       0,
                                  "threads",   kOneBuffer, nullptr, nullptr};
  void *f =
      loadKernel({&desc, threadsKernel, {memrefArg(4, 1, 0)}, {1, 1, 1}}, 3);
  std::vector<uint32_t> out(200, 0);
  MemRef m(out.data(), out.size());
  std::vector<void *> params;
  m.append(params);
  threadIds.clear();
  ASSERT_FALSE(launch(f, {200, 1, 1}, {1, 1, 1}, params));
  for (uint32_t i = 0; i < 200; ++i)
    EXPECT_EQ(out[i], i + 1);
  EXPECT_LE(threadIds.size(), 3u);
  EXPECT_GE(threadIds.size(), 2u);
  EXPECT_EQ(threadIds.count(std::this_thread::get_id()), 0u);
  KilnSpirvCpuStats stats;
  kilnSpirvCpuGetStats(&stats);
  EXPECT_EQ(stats.threads, 3u);
}

TEST(SPIRVCPURuntime, ThreadCountIsValidated) {
  unsigned threads = 0;
  std::string error;
  EXPECT_TRUE(parseThreadCount("7", threads, error));
  EXPECT_EQ(threads, 7u);
  EXPECT_TRUE(parseThreadCount(nullptr, threads, error));
  EXPECT_GE(threads, 1u);
  for (const char *bad : {"0", "-2", "many", "4x", "5000"}) {
    EXPECT_FALSE(parseThreadCount(bad, threads, error)) << bad;
    EXPECT_EQ(error, std::string("KILN_CPU_THREADS='") + bad +
                         "' is not a number of worker threads from 1 to 1024");
  }
}

TEST(SPIRVCPURuntime, DescribesTheHost) {
  EXPECT_STREQ(cpu().backend(), "spirv-cpu");
  auto target = cpu().deviceTarget();
  ASSERT_TRUE(bool(target));
  EXPECT_EQ(*target, "spirv-cpu");
  auto text = cpu().describeDevices();
  ASSERT_TRUE(bool(text));
  EXPECT_NE(text->find("worker threads: 3 (KILN_CPU_THREADS)"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("subgroup size: 8"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

void reverseKernel(Invocation *inv) {
  auto *shared = reinterpret_cast<uint32_t *>(inv->workgroupMemory);
  const uint32_t *in = resource<uint32_t>(inv, 0);
  uint32_t *out = resource<uint32_t>(inv, 1);
  uint32_t local = inv->localInvocationIndex, n = inv->workgroupSize[0];
  uint32_t global = inv->globalInvocationId[0];
  shared[local] = in[global];
  __kiln_spirv_cpu_barrier(inv, 0);
  out[global] = shared[n - 1 - local];
}

TEST(SPIRVCPURuntime, BarrierMakesWorkgroupMemoryReverseWork) {
  static const KernelDesc desc = {
      kABIVersion, kUsesBarrier, 64 * 4,      0,       2,     0, 3,
      0,           "reverse",    kTwoBuffers, nullptr, kSites};
  void *f = loadKernel({&desc,
                        reverseKernel,
                        {memrefArg(4, 1, 0), memrefArg(4, 1, 1)},
                        {64, 1, 1}},
                       4);
  std::vector<uint32_t> in(64 * 8), out(64 * 8, 0);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = uint32_t(i * 3 + 1);
  MemRef a(in.data(), in.size()), b(out.data(), out.size());
  std::vector<void *> params;
  a.append(params);
  b.append(params);
  ASSERT_FALSE(launch(f, {8, 1, 1}, {64, 1, 1}, params));
  for (uint32_t g = 0; g < 8; ++g)
    for (uint32_t l = 0; l < 64; ++l)
      EXPECT_EQ(out[g * 64 + l], in[g * 64 + 63 - l]);
}

void rotateKernel(Invocation *inv) {
  auto *shared = reinterpret_cast<uint32_t *>(inv->workgroupMemory);
  uint32_t local = inv->localInvocationIndex, n = inv->workgroupSize[0];
  shared[local] = local;
  __kiln_spirv_cpu_barrier(inv, 0);
  for (int i = 0; i < 100; ++i) {
    uint32_t v = shared[(local + 1) % n];
    __kiln_spirv_cpu_barrier(inv, 1);
    shared[local] = v;
    __kiln_spirv_cpu_barrier(inv, 0);
  }
  resource<uint32_t>(inv, 0)[inv->globalInvocationId[0]] = shared[local];
}

TEST(SPIRVCPURuntime, ManyBarriersInALoop) {
  static const KernelDesc desc = {
      kABIVersion, kUsesBarrier, 48 * 4,     0,       1,     0, 3,
      0,           "rotate",     kOneBuffer, nullptr, kSites};
  void *f =
      loadKernel({&desc, rotateKernel, {memrefArg(4, 1, 0)}, {48, 1, 1}}, 5);
  std::vector<uint32_t> out(48 * 5, 0);
  MemRef a(out.data(), out.size());
  std::vector<void *> params;
  a.append(params);
  ASSERT_FALSE(launch(f, {5, 1, 1}, {48, 1, 1}, params));
  for (uint32_t g = 0; g < 5; ++g)
    for (uint32_t l = 0; l < 48; ++l)
      EXPECT_EQ(out[g * 48 + l], (l + 100) % 48);
}

void earlyReturnKernel(Invocation *inv) {
  uint32_t local = inv->localInvocationIndex;
  if (local >= 4 && inv->workgroupId[0] == 1)
    return;
  __kiln_spirv_cpu_barrier(inv, 0);
  resource<uint32_t>(inv, 0)[inv->globalInvocationId[0]] = 7;
}

TEST(SPIRVCPURuntime, UncheckedBarrierIgnoresReturnedInvocations) {
  static const KernelDesc desc = {
      kABIVersion, kUsesBarrier,   0,          0,       1,     0, 3,
      0,           "early_return", kOneBuffer, nullptr, kSites};
  void *f = loadKernel(
      {&desc, earlyReturnKernel, {memrefArg(4, 1, 0)}, {8, 1, 1}}, 6);
  std::vector<uint32_t> out(16, 0);
  MemRef a(out.data(), out.size());
  std::vector<void *> params;
  a.append(params);
  ASSERT_FALSE(launch(f, {2, 1, 1}, {8, 1, 1}, params));
  for (uint32_t i = 0; i < 16; ++i)
    EXPECT_EQ(out[i], i < 12 ? 7u : 0u) << i;
}

TEST(SPIRVCPURuntime, CheckedBarrierWithAReturnedInvocationFails) {
  static const KernelDesc desc = {kABIVersion, kUsesBarrier | kChecked,
                                  0,           0,
                                  1,           0,
                                  3,           0,
                                  "diverge",   kOneBuffer,
                                  nullptr,     kSites};
  void *f = loadKernel(
      {&desc, earlyReturnKernel, {memrefArg(4, 1, 0)}, {8, 1, 1}}, 7);
  std::vector<uint32_t> out(16, 0);
  MemRef a(out.data(), out.size());
  std::vector<void *> params;
  a.append(params);
  rt::Status s = launch(f, {2, 1, 1}, {8, 1, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.kind(), rt::ErrorKind::InvalidArgument);
  EXPECT_EQ(s.message(),
            "kernel 'diverge': workgroup (1, 0, 0): invocation (4, 0, 0) "
            "returned without reaching the barrier at file.mlir:12:5 that "
            "invocation (0, 0, 0) waits at");
}

void twoBarriersKernel(Invocation *inv) {
  if (inv->localInvocationIndex % 2)
    __kiln_spirv_cpu_barrier(inv, 1);
  else
    __kiln_spirv_cpu_barrier(inv, 0);
}

TEST(SPIRVCPURuntime, CheckedBarriersAtDifferentSitesFail) {
  static const KernelDesc desc = {
      kABIVersion, kUsesBarrier | kChecked, 0,       0,       0,     0, 3,
      0,           "two_barriers",          nullptr, nullptr, kSites};
  void *f = loadKernel({&desc, twoBarriersKernel, {}, {4, 1, 1}}, 8);
  rt::Status s = launch(f, {1, 1, 1}, {4, 1, 1}, {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(),
            "kernel 'two_barriers': workgroup (0, 0, 0): invocation (0, 0, 0) "
            "waits at the barrier at file.mlir:12:5 while invocation "
            "(1, 0, 0) waits at the barrier at file.mlir:14:5; every "
            "invocation of a workgroup must reach the same barrier");
  // Unchecked, the same kernel runs (each barrier releases its waiters).
  static const KernelDesc unchecked = {
      kABIVersion, kUsesBarrier,   0,       0,       0,     0, 3,
      0,           "two_barriers", nullptr, nullptr, kSites};
  void *g = loadKernel({&unchecked, twoBarriersKernel, {}, {4, 1, 1}}, 9);
  EXPECT_FALSE(launch(g, {1, 1, 1}, {4, 1, 1}, {}));
}

//===----------------------------------------------------------------------===//
// Subgroup operations, without fibers
//===----------------------------------------------------------------------===//

struct Lanes {
  SubgroupLane lanes[kSubgroupSize];
  uint8_t values[kSubgroupSize][64] = {};
  uint8_t results[kSubgroupSize][64] = {};

  Lanes(SubgroupOp op, ScalarKind type, uint32_t components, uint32_t arg,
        uint32_t activeMask = 0xFF) {
    for (uint32_t l = 0; l < kSubgroupSize; ++l) {
      lanes[l].active = (activeMask >> l) & 1;
      lanes[l].op = uint32_t(op);
      lanes[l].type = uint32_t(type);
      lanes[l].components = components;
      lanes[l].arg = arg;
      lanes[l].value = values[l];
      lanes[l].result = results[l];
      std::memset(results[l], 0xAB, sizeof(results[l]));
    }
  }
  template <typename T> void set(uint32_t lane, uint32_t c, T v) {
    std::memcpy(values[lane] + c * sizeof(T), &v, sizeof(T));
  }
  template <typename T> T get(uint32_t lane, uint32_t c = 0) const {
    T v;
    std::memcpy(&v, results[lane] + c * sizeof(T), sizeof(T));
    return v;
  }
  rt::Status run() { return resolveSubgroup(lanes); }
};

uint32_t group(GroupOperation g, uint32_t cluster = 0) {
  return uint32_t(g) | (cluster << 8);
}

TEST(SPIRVCPUSubgroup, IntegerReductionsAndScans) {
  {
    Lanes t(SubgroupOp::IAdd, ScalarKind::I32, 1,
            group(GroupOperation::Reduce));
    for (uint32_t l = 0; l < 8; ++l)
      t.set<int32_t>(l, 0, int32_t(l + 1));
    ASSERT_FALSE(t.run());
    for (uint32_t l = 0; l < 8; ++l)
      EXPECT_EQ(t.get<int32_t>(l), 36);
  }
  {
    Lanes t(SubgroupOp::IAdd, ScalarKind::I32, 1,
            group(GroupOperation::InclusiveScan));
    Lanes e(SubgroupOp::IAdd, ScalarKind::I32, 1,
            group(GroupOperation::ExclusiveScan));
    for (uint32_t l = 0; l < 8; ++l) {
      t.set<int32_t>(l, 0, int32_t(l + 1));
      e.set<int32_t>(l, 0, int32_t(l + 1));
    }
    ASSERT_FALSE(t.run());
    ASSERT_FALSE(e.run());
    int32_t sum = 0;
    for (uint32_t l = 0; l < 8; ++l) {
      EXPECT_EQ(e.get<int32_t>(l), sum);
      sum += int32_t(l + 1);
      EXPECT_EQ(t.get<int32_t>(l), sum);
    }
  }
  {
    // A divergent subset: lanes 1, 3, 4, 6.
    Lanes t(SubgroupOp::IAdd, ScalarKind::I32, 1,
            group(GroupOperation::InclusiveScan), 0x5A);
    for (uint32_t l = 0; l < 8; ++l)
      t.set<int32_t>(l, 0, int32_t(10 * l));
    ASSERT_FALSE(t.run());
    EXPECT_EQ(t.get<int32_t>(1), 10);
    EXPECT_EQ(t.get<int32_t>(3), 40);
    EXPECT_EQ(t.get<int32_t>(4), 80);
    EXPECT_EQ(t.get<int32_t>(6), 140);
    EXPECT_EQ(t.get<uint32_t>(0), 0xABABABABu) << "inactive lane written";
  }
  {
    Lanes t(SubgroupOp::IMul, ScalarKind::I64, 1,
            group(GroupOperation::ClusteredReduce, 4));
    for (uint32_t l = 0; l < 8; ++l)
      t.set<int64_t>(l, 0, int64_t(l + 1) << 20);
    ASSERT_FALSE(t.run());
    uint64_t expectLow = 1, expectHigh = 1;
    for (uint64_t v = 1; v <= 4; ++v)
      expectLow *= v << 20;
    for (uint64_t v = 5; v <= 8; ++v)
      expectHigh *= v << 20;
    for (uint32_t l = 0; l < 8; ++l)
      EXPECT_EQ(t.get<uint64_t>(l), l < 4 ? expectLow : expectHigh);
  }
  {
    Lanes smin(SubgroupOp::SMin, ScalarKind::I8, 1, 0);
    Lanes umax(SubgroupOp::UMax, ScalarKind::I8, 1, 0);
    Lanes smaxEx(SubgroupOp::SMax, ScalarKind::I16, 1,
                 group(GroupOperation::ExclusiveScan));
    for (uint32_t l = 0; l < 8; ++l) {
      smin.set<int8_t>(l, 0, int8_t(l * 20 - 70));
      umax.set<int8_t>(l, 0, int8_t(l * 20 - 70));
      smaxEx.set<int16_t>(l, 0, int16_t(-1000 + int(l)));
    }
    ASSERT_FALSE(smin.run());
    ASSERT_FALSE(umax.run());
    ASSERT_FALSE(smaxEx.run());
    EXPECT_EQ(smin.get<int8_t>(5), -70);
    EXPECT_EQ(umax.get<uint8_t>(5), uint8_t(int8_t(-10))); // 246
    EXPECT_EQ(smaxEx.get<int16_t>(0), INT16_MIN);          // The identity.
    EXPECT_EQ(smaxEx.get<int16_t>(3), -998);
  }
  {
    Lanes a(SubgroupOp::BitwiseAnd, ScalarKind::I32, 2, 0);
    Lanes x(SubgroupOp::BitwiseXor, ScalarKind::I32, 2,
            group(GroupOperation::InclusiveScan));
    for (uint32_t l = 0; l < 8; ++l)
      for (uint32_t c = 0; c < 2; ++c) {
        a.set<uint32_t>(l, c, ~(1u << (l + c)));
        x.set<uint32_t>(l, c, 1u << (l + c));
      }
    ASSERT_FALSE(a.run());
    ASSERT_FALSE(x.run());
    EXPECT_EQ(a.get<uint32_t>(0, 0), ~0xFFu);
    EXPECT_EQ(a.get<uint32_t>(0, 1), ~0x1FEu);
    EXPECT_EQ(x.get<uint32_t>(2, 0), 0x7u);
    EXPECT_EQ(x.get<uint32_t>(2, 1), 0xEu);
  }
  {
    Lanes t(SubgroupOp::LogicalOr, ScalarKind::Bool, 1, 0);
    t.set<uint8_t>(5, 0, 1);
    Lanes u(SubgroupOp::LogicalAnd, ScalarKind::Bool, 1, 0);
    for (uint32_t l = 0; l < 8; ++l)
      u.set<uint8_t>(l, 0, l != 2);
    ASSERT_FALSE(t.run());
    ASSERT_FALSE(u.run());
    EXPECT_EQ(t.get<uint8_t>(0), 1);
    EXPECT_EQ(u.get<uint8_t>(0), 0);
  }
}

TEST(SPIRVCPUSubgroup, FloatReductions) {
  {
    // f32 sums in f32: 2^24 + 1 + 1 + ... loses every 1.
    Lanes t(SubgroupOp::FAdd, ScalarKind::F32, 1,
            group(GroupOperation::InclusiveScan));
    t.set<float>(0, 0, 16777216.0f);
    for (uint32_t l = 1; l < 8; ++l)
      t.set<float>(l, 0, 1.0f);
    ASSERT_FALSE(t.run());
    EXPECT_EQ(t.get<float>(7), 16777216.0f);
  }
  {
    // f16, two components: 2048 + 1 is 2048 in f16.
    Lanes t(SubgroupOp::FAdd, ScalarKind::F16, 2, 0);
    for (uint32_t l = 0; l < 8; ++l) {
      t.set<uint16_t>(l, 0, rt::floatToHalf(l == 0 ? 2048.0f : 1.0f));
      t.set<uint16_t>(l, 1, rt::floatToHalf(0.5f * float(l)));
    }
    ASSERT_FALSE(t.run());
    EXPECT_EQ(rt::halfToFloat(t.get<uint16_t>(3, 0)), 2048.0f);
    EXPECT_EQ(rt::halfToFloat(t.get<uint16_t>(3, 1)), 14.0f);
  }
  {
    Lanes mn(SubgroupOp::FMin, ScalarKind::F32, 1, 0);
    Lanes mx(SubgroupOp::FMax, ScalarKind::F64, 1,
             group(GroupOperation::ExclusiveScan));
    Lanes mul(SubgroupOp::FMul, ScalarKind::F64, 1, 0);
    for (uint32_t l = 0; l < 8; ++l) {
      mn.set<float>(l, 0, l == 2 ? NAN : float(l) - 3.5f);
      mx.set<double>(l, 0, double(l));
      mul.set<double>(l, 0, 2.0);
    }
    ASSERT_FALSE(mn.run());
    ASSERT_FALSE(mx.run());
    ASSERT_FALSE(mul.run());
    EXPECT_EQ(mn.get<float>(0), -3.5f);
    EXPECT_EQ(mx.get<double>(0), -INFINITY);
    EXPECT_EQ(mx.get<double>(5), 4.0);
    EXPECT_EQ(mul.get<double>(1), 256.0);
  }
  {
    Lanes t(SubgroupOp::FMax, ScalarKind::F16, 1, 0);
    for (uint32_t l = 0; l < 8; ++l)
      t.set<uint16_t>(l, 0, l == 0 ? 0x7E00 : rt::floatToHalf(-float(l)));
    ASSERT_FALSE(t.run());
    EXPECT_EQ(rt::halfToFloat(t.get<uint16_t>(4)), -1.0f);
  }
}

TEST(SPIRVCPUSubgroup, ShufflesBroadcastsAndVotes) {
  {
    Lanes t(SubgroupOp::Broadcast, ScalarKind::I64, 1, 5);
    for (uint32_t l = 0; l < 8; ++l)
      t.set<int64_t>(l, 0, int64_t(l) * 1000000000000ll);
    ASSERT_FALSE(t.run());
    EXPECT_EQ(t.get<int64_t>(0), 5000000000000ll);
  }
  {
    Lanes t(SubgroupOp::BroadcastFirst, ScalarKind::F32, 3, 0, 0xF0);
    for (uint32_t l = 0; l < 8; ++l)
      for (uint32_t c = 0; c < 3; ++c)
        t.set<float>(l, c, float(l * 10 + c));
    ASSERT_FALSE(t.run());
    EXPECT_EQ(t.get<float>(6, 2), 42.0f);
  }
  {
    // Lane l reads lane 7 - l; lanes 0..3 only are active, so 4..7 read
    // inactive lanes and get 0.
    Lanes t(SubgroupOp::Shuffle, ScalarKind::I16, 1, 0, 0x0F);
    for (uint32_t l = 0; l < 8; ++l) {
      t.lanes[l].arg = l % 2 ? 7 - l : 2;
      t.set<int16_t>(l, 0, int16_t(100 + l));
    }
    t.lanes[3].arg = 99; // Out of range.
    ASSERT_FALSE(t.run());
    EXPECT_EQ(t.get<int16_t>(0), 102);
    EXPECT_EQ(t.get<int16_t>(1), 0); // Lane 6 is inactive.
    EXPECT_EQ(t.get<int16_t>(2), 102);
    EXPECT_EQ(t.get<int16_t>(3), 0);
  }
  {
    Lanes x(SubgroupOp::ShuffleXor, ScalarKind::I8, 1, 1);
    Lanes up(SubgroupOp::ShuffleUp, ScalarKind::I32, 1, 2);
    Lanes down(SubgroupOp::ShuffleDown, ScalarKind::F16, 1, 3);
    for (uint32_t l = 0; l < 8; ++l) {
      x.set<int8_t>(l, 0, int8_t(l));
      up.set<int32_t>(l, 0, int32_t(l));
      down.set<uint16_t>(l, 0, rt::floatToHalf(float(l)));
    }
    ASSERT_FALSE(x.run());
    ASSERT_FALSE(up.run());
    ASSERT_FALSE(down.run());
    EXPECT_EQ(x.get<int8_t>(4), 5);
    EXPECT_EQ(up.get<int32_t>(1), 0);
    EXPECT_EQ(up.get<int32_t>(5), 3);
    EXPECT_EQ(rt::halfToFloat(down.get<uint16_t>(2)), 5.0f);
    EXPECT_EQ(down.get<uint16_t>(6), 0);
  }
  {
    Lanes e(SubgroupOp::Elect, ScalarKind::Bool, 1, 0, 0xB4);
    ASSERT_FALSE(e.run());
    for (uint32_t l : {2u, 4u, 5u, 7u})
      EXPECT_EQ(e.get<uint8_t>(l), l == 2 ? 1 : 0);
  }
  {
    Lanes b(SubgroupOp::Ballot, ScalarKind::Bool, 1, 0, 0x7E);
    Lanes all(SubgroupOp::All, ScalarKind::Bool, 1, 0, 0x7E);
    Lanes any(SubgroupOp::Any, ScalarKind::Bool, 1, 0, 0x7E);
    for (uint32_t l = 0; l < 8; ++l) {
      b.set<uint8_t>(l, 0, l % 2);
      all.set<uint8_t>(l, 0, l % 2);
      any.set<uint8_t>(l, 0, l == 7);
    }
    ASSERT_FALSE(b.run());
    ASSERT_FALSE(all.run());
    ASSERT_FALSE(any.run());
    EXPECT_EQ(b.get<uint32_t>(1, 0), 0x2Au); // Lanes 1, 3, 5 (7 inactive).
    EXPECT_EQ(b.get<uint32_t>(1, 1), 0u);
    EXPECT_EQ(b.get<uint32_t>(1, 3), 0u);
    EXPECT_EQ(all.get<uint8_t>(1), 0);
    EXPECT_EQ(any.get<uint8_t>(1), 0); // Lane 7 is inactive.
  }
  {
    Lanes eq(SubgroupOp::AllEqual, ScalarKind::F32, 2, 0);
    for (uint32_t l = 0; l < 8; ++l) {
      eq.set<float>(l, 0, l ? 0.0f : -0.0f);
      eq.set<float>(l, 1, 3.0f);
    }
    ASSERT_FALSE(eq.run());
    EXPECT_EQ(eq.get<uint8_t>(3), 1);
    eq.set<float>(6, 1, 3.5f);
    ASSERT_FALSE(eq.run());
    EXPECT_EQ(eq.get<uint8_t>(3), 0);
  }
}

TEST(SPIRVCPUSubgroup, RefusesWhatMakesNoSense) {
  Lanes f(SubgroupOp::FAdd, ScalarKind::I32, 1, 0);
  rt::Status s = f.run();
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "subgroup operation FAdd on i32");
  Lanes c(SubgroupOp::IAdd, ScalarKind::I32, 1,
          group(GroupOperation::ClusteredReduce, 3));
  s = c.run();
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "subgroup operation IAdd with cluster size 3; it "
                         "must be a power of two up to 8");
  Lanes m(SubgroupOp::IAdd, ScalarKind::I32, 1, 0);
  m.lanes[3].op = uint32_t(SubgroupOp::IMul);
  s = m.run();
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("different subgroup operations (IAdd and IMul)"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Subgroup operations in kernels
//===----------------------------------------------------------------------===//

void subgroupKernel(Invocation *inv) {
  uint32_t local = inv->localInvocationIndex;
  int32_t *out = resource<int32_t>(inv, 0) + inv->globalInvocationId[0] * 4;
  int32_t value = int32_t(local), sum = -1;
  // Divergent: even and odd lanes reduce at different sites.
  __kiln_spirv_cpu_subgroup(inv, local % 2, uint32_t(SubgroupOp::IAdd),
                            uint32_t(ScalarKind::I32), 1, &value, &sum,
                            uint32_t(GroupOperation::Reduce));
  out[0] = sum;
  uint16_t h[2] = {rt::floatToHalf(float(local)), rt::floatToHalf(1.0f)};
  uint16_t scan[2];
  __kiln_spirv_cpu_subgroup(inv, 2, uint32_t(SubgroupOp::FAdd),
                            uint32_t(ScalarKind::F16), 2, h, scan,
                            uint32_t(GroupOperation::ExclusiveScan));
  out[1] = int32_t(rt::halfToFloat(scan[0]));
  out[2] = int32_t(rt::halfToFloat(scan[1]));
  uint8_t elected = 0;
  if (local % 8 >= 3) // Only lanes 3..7 of each subgroup.
    __kiln_spirv_cpu_subgroup(inv, 2, uint32_t(SubgroupOp::Elect),
                              uint32_t(ScalarKind::Bool), 1, nullptr, &elected,
                              0);
  out[3] = elected;
}

TEST(SPIRVCPURuntime, SubgroupOperationsInKernels) {
  static const KernelDesc desc = {
      kABIVersion, kUsesSubgroupOps, 0,          0,       1,     0, 3,
      0,           "subgroups",      kOneBuffer, nullptr, kSites};
  // 20 invocations: subgroups of 8, 8 and 4.
  void *f =
      loadKernel({&desc, subgroupKernel, {memrefArg(4, 1, 0)}, {20, 1, 1}}, 10);
  std::vector<int32_t> out(20 * 4 * 3, -7);
  MemRef a(out.data(), out.size());
  std::vector<void *> params;
  a.append(params);
  ASSERT_FALSE(launch(f, {3, 1, 1}, {20, 1, 1}, params));
  for (uint32_t g = 0; g < 3; ++g)
    for (uint32_t l = 0; l < 20; ++l) {
      const int32_t *o = &out[(g * 20 + l) * 4];
      uint32_t base = l / 8 * 8, end = std::min(base + 8, 20u);
      int32_t sum = 0, before = 0;
      for (uint32_t m = base; m < end; ++m) {
        if (m % 2 == l % 2)
          sum += int32_t(m);
        if (m < l)
          before += int32_t(m);
      }
      EXPECT_EQ(o[0], sum) << l;
      EXPECT_EQ(o[1], before) << l;
      EXPECT_EQ(o[2], int32_t(l - base)) << l;
      EXPECT_EQ(o[3], l % 8 == 3 ? 1 : 0) << l;
    }
}

//===----------------------------------------------------------------------===//
// Checked mode
//===----------------------------------------------------------------------===//

std::atomic<int> oobWorkgroupsRun{0};

/// A memref<4x64xf32> view of `data` (row stride 64).
MemRef view4x64(float *data) {
  MemRef b(data, 0);
  b.rank = 2;
  b.sizes[0] = 4;
  b.sizes[1] = 64;
  b.strides[0] = 64;
  b.strides[1] = 1;
  return b;
}

void oobKernel(Invocation *inv) {
  if (inv->localInvocationIndex == 0)
    ++oobWorkgroupsRun;
  float *out = resource<float>(inv, 1);
  uint32_t index = inv->globalInvocationId[0];
  if (inv->workgroupId[0] == 3 && inv->localInvocationIndex == 7)
    index = 300;
  __kiln_spirv_cpu_check(inv, 2, uint32_t(AccessKind::Write),
                         uint32_t(AccessSpace::Resource), 1, out + index, 4);
  out[index] = 1.0f;
}

TEST(SPIRVCPURuntime, CheckedResourceAccessOutOfBounds) {
  static const KernelDesc desc = {kABIVersion, kChecked,    0,       0,
                                  2,           0,           3,       0,
                                  "oob",       kTwoBuffers, nullptr, kSites};
  void *f = loadKernel(
      {&desc, oobKernel, {memrefArg(4, 1, 0), memrefArg(4, 2, 1)}, {8, 1, 1}},
      11);
  std::vector<int32_t> first(4);
  std::vector<float> second(4 * 64 + 64, 0.0f); // Room past the view.
  MemRef a(first.data(), 4), b = view4x64(second.data());
  std::vector<void *> params;
  a.append(params);
  b.append(params);
  rt::Status s = launch(f, {4, 1, 1}, {8, 1, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(),
            "kernel 'oob' at file.mlir:20:7: workgroup (3, 0, 0) invocation "
            "(7, 0, 0) writes 4 bytes out of bounds of argument 1 "
            "(memref<4x64xf32>): element 300, the binding holds 256 elements");
  EXPECT_EQ(second[300], 0.0f) << "the failing access happened";

  // A failure stops the launch: with many workgroups, few run.
  oobWorkgroupsRun = 0;
  static const KernelDesc early = {kABIVersion, kChecked,    0,       0,
                                   2,           0,           3,       0,
                                   "oob_early", kTwoBuffers, nullptr, kSites};
  struct Early {
    static void run(Invocation *inv) {
      ++oobWorkgroupsRun;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      float *out = resource<float>(inv, 1);
      uint32_t index = inv->workgroupId[0] == 0 ? 5000 : 0;
      __kiln_spirv_cpu_check(inv, 2, uint32_t(AccessKind::Read),
                             uint32_t(AccessSpace::Resource), 1, out + index,
                             4);
    }
  };
  void *g = loadKernel(
      {&early, Early::run, {memrefArg(4, 1, 0), memrefArg(4, 2, 1)}, {1, 1, 1}},
      12);
  s = launch(g, {2000, 1, 1}, {1, 1, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("reads 4 bytes out of bounds"), std::string::npos);
  EXPECT_LT(oobWorkgroupsRun.load(), 1000);

  // The runtime stays usable: the same kernel within bounds runs.
  static const KernelDesc fine = {kABIVersion, kChecked,   0,       0,
                                  1,           0,          3,       0,
                                  "fine",      kOneBuffer, nullptr, kSites};
  struct Fine {
    static void run(Invocation *inv) {
      int32_t *out = resource<int32_t>(inv, 0);
      uint32_t i = inv->globalInvocationId[0];
      __kiln_spirv_cpu_check(inv, 2, uint32_t(AccessKind::Atomic),
                             uint32_t(AccessSpace::Resource), 0, out + i, 4);
      out[i] = int32_t(i) + 1;
    }
  };
  void *h = loadKernel({&fine, Fine::run, {memrefArg(4, 1, 0)}, {2, 1, 1}}, 13);
  std::vector<void *> fineParams;
  a.append(fineParams);
  ASSERT_FALSE(launch(h, {2, 1, 1}, {2, 1, 1}, fineParams));
  EXPECT_EQ(first[3], 4);
}

const WorkgroupVarDesc kWorkgroupVars[] = {
    {16, 256, "workgroup variable 0 (memref<64xf32, 3>)"}};

void workgroupOobKernel(Invocation *inv) {
  auto *var = reinterpret_cast<float *>(inv->workgroupMemory + 16);
  uint32_t local = inv->localInvocationIndex;
  // Checked mode fills workgroup memory with 0xCD bytes.
  uint32_t bits;
  std::memcpy(&bits, &var[local], 4);
  // One element per invocation of the grid: the two workgroups (0, 0, 0)
  // and (0, 1, 0) run on different workers and must not share elements.
  resource<uint32_t>(inv, 0)[inv->workgroupId[1] * 4 + local] = bits;
  uint32_t index = local == 2 && inv->workgroupId[1] == 1 ? 64 : local;
  __kiln_spirv_cpu_check(inv, 0, uint32_t(AccessKind::Read),
                         uint32_t(AccessSpace::Workgroup), 0, &var[index], 4);
}

TEST(SPIRVCPURuntime, CheckedWorkgroupAccessOutOfBounds) {
  static const KernelDesc desc = {
      kABIVersion, kChecked,   16 + 256,       0,     1, 1, 3, 0,
      "wg_oob",    kOneBuffer, kWorkgroupVars, kSites};
  void *f = loadKernel(
      {&desc, workgroupOobKernel, {memrefArg(4, 1, 0)}, {4, 1, 1}}, 14);
  std::vector<uint32_t> out(8, 0);
  MemRef a(out.data(), out.size());
  std::vector<void *> params;
  a.append(params);
  rt::Status s = launch(f, {1, 2, 1}, {4, 1, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(),
            "kernel 'wg_oob' at file.mlir:12:5: workgroup (0, 1, 0) "
            "invocation (2, 0, 0) reads 4 bytes out of bounds of workgroup "
            "variable 0 (memref<64xf32, 3>): byte 256, the variable holds 256 "
            "bytes");
  EXPECT_EQ(out[0], 0xCDCDCDCDu);
}

// Bounded accesses read Invocation::bounds: the zero area, the sink, each
// resource's [lo, hi) (a memref view's reachable bytes, as checked mode
// has them) and each workgroup variable's, in this worker's memory. The
// kernel writes what it sees into its first buffer.
void boundsKernel(Invocation *inv) {
  const uintptr_t *b = inv->bounds;
  auto *out = resource<uint64_t>(inv, 0);
  if (inv->localInvocationIndex != 0 || inv->workgroupId[0] != 0)
    return;
  auto zeros = reinterpret_cast<const uint8_t *>(b[kBoundsZeros]);
  bool allZero = true;
  for (uint32_t i = 0; i < kBoundsScratchBytes; ++i)
    allZero &= zeros[i] == 0;
  out[0] = allZero;
  out[1] = b[kBoundsSink] % 64 == 0 && b[kBoundsSink] != b[kBoundsZeros];
  out[2] =
      b[boundsOfResource(1)] - reinterpret_cast<uintptr_t>(inv->resources[1]);
  out[3] = b[boundsOfResource(1) + 1] - b[boundsOfResource(1)];
  auto wm = reinterpret_cast<uintptr_t>(inv->workgroupMemory);
  out[4] = b[boundsOfWorkgroupVar(2, 0)] - wm;
  out[5] = b[boundsOfWorkgroupVar(2, 0) + 1] - b[boundsOfWorkgroupVar(2, 0)];
  out[6] = inv->dynamicWorkgroupBytes;
}

TEST(SPIRVCPURuntime, BoundedKernelsGetTheirBounds) {
  static const KernelDesc desc = {
      kABIVersion, kBounded,    16 + 256,       0,     2, 1, 3, 0,
      "bounds",    kTwoBuffers, kWorkgroupVars, kSites};
  void *f = loadKernel({&desc,
                        boundsKernel,
                        {memrefArg(8, 1, 0), memrefArg(4, 2, 1)},
                        {4, 1, 1}},
                       15);
  std::vector<uint64_t> seen(8, 99);
  std::vector<float> view(4 * 64 + 64, 0.0f);
  MemRef a(seen.data(), seen.size()), b = view4x64(view.data());
  std::vector<void *> params;
  a.append(params);
  b.append(params);
  ASSERT_FALSE(launch(f, {2, 1, 1}, {4, 1, 1}, params));
  EXPECT_EQ(seen[0], 1u) << "the zero area is not zero";
  EXPECT_EQ(seen[1], 1u) << "the sink is not the worker's own";
  EXPECT_EQ(seen[2], 0u) << "resource 1 starts at its first element";
  EXPECT_EQ(seen[3], 4u * 64 * 4) << "resource 1 holds 4 x 64 floats";
  EXPECT_EQ(seen[4], 16u) << "workgroup variable 0 is at offset 16";
  EXPECT_EQ(seen[5], 256u) << "workgroup variable 0 holds 256 bytes";
  EXPECT_EQ(seen[6], 0u) << "no dynamic workgroup memory";
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

void copyPushConstantsKernel(Invocation *inv) {
  std::memcpy(inv->resources[0], inv->pushConstants, 48);
}

TEST(SPIRVCPURuntime, ScalarArgumentsInThePushConstantBlock) {
  static const KernelDesc desc = {kABIVersion, 0,          0,       0,
                                  1,           0,          0,       0,
                                  "scalars",   kOneBuffer, nullptr, nullptr};
  TestKernel k{
      &desc,
      copyPushConstantsKernel,
      {memrefArg(1, 1, 0), scalarArg(ScalarType::I1, 4, 0),
       scalarArg(ScalarType::I8, 4, 4), scalarArg(ScalarType::I16, 4, 8),
       scalarArg(ScalarType::I32, 4, 12), scalarArg(ScalarType::I64, 8, 16),
       scalarArg(ScalarType::F16, 4, 24), scalarArg(ScalarType::F32, 4, 28),
       scalarArg(ScalarType::F64, 8, 32), scalarArg(ScalarType::Index, 4, 40)},
      {1, 1, 1},
      48};
  void *f = loadKernel(k, 15);
  std::vector<uint8_t> out(48, 0xEE);
  MemRef m(out.data(), out.size());
  bool i1 = true;
  int8_t i8 = -5;
  int16_t i16 = -300;
  int32_t i32 = -123456;
  int64_t i64 = -(int64_t(1) << 40);
  uint16_t f16 = rt::floatToHalf(1.5f);
  float f32 = 2.25f;
  double f64 = -0.125;
  int64_t index = 77;
  std::vector<void *> params;
  m.append(params);
  for (void *p : std::initializer_list<void *>{&i1, &i8, &i16, &i32, &i64, &f16,
                                               &f32, &f64, &index})
    params.push_back(p);
  ASSERT_FALSE(launch(f, {1, 1, 1}, {1, 1, 1}, params));
  auto word = [&](size_t at) {
    int32_t v;
    std::memcpy(&v, &out[at], 4);
    return v;
  };
  EXPECT_EQ(word(0), 1);
  EXPECT_EQ(word(4), -5);
  EXPECT_EQ(word(8), -300);
  EXPECT_EQ(word(12), -123456);
  int64_t w64;
  std::memcpy(&w64, &out[16], 8);
  EXPECT_EQ(w64, i64);
  float wf;
  std::memcpy(&wf, &out[24], 4);
  EXPECT_EQ(wf, 1.5f);
  std::memcpy(&wf, &out[28], 4);
  EXPECT_EQ(wf, 2.25f);
  double wd;
  std::memcpy(&wd, &out[32], 8);
  EXPECT_EQ(wd, -0.125);
  EXPECT_EQ(word(40), 77);

  index = int64_t(1) << 40;
  rt::Status s = launch(f, {1, 1, 1}, {1, 1, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'scalars' argument 9 (index) does not fit "
                         "the kernel's 32-bit index (compile with "
                         "use-64bit-index)");
}

struct MetadataOut {
  int32_t pc[16];
  uint64_t address;
  void *resource0;
  bool uniformIsTheBlock;
};
MetadataOut metadataSeen;

void metadataKernel(Invocation *inv) {
  std::memcpy(metadataSeen.pc, inv->pushConstants, 64);
  std::memcpy(&metadataSeen.address,
              static_cast<const uint8_t *>(inv->pushConstants) + 24, 8);
  metadataSeen.resource0 = inv->resources[0];
  metadataSeen.uniformIsTheBlock = inv->resources[1] == inv->pushConstants;
  resource<float>(inv, 0)[0] = 42.0f; // The view's element (0, 0).
}

TEST(SPIRVCPURuntime, DynamicMemRefMetadata) {
  const ResourceDesc resources[] = {
      {ResourceKind::StorageBuffer, 0, 0, 0, "argument 0 (memref<?x?xf32>)"},
      {ResourceKind::UniformBuffer, 1, 0, 0, "push constants"}};
  static const KernelDesc desc = {kABIVersion, 0,         0,       0,
                                  2,           0,         0,       0,
                                  "metadata",  resources, nullptr, nullptr};
  // Argument 0: memref<?x?xf32> with metadata at 0 (5 index fields);
  // argument 1: a strided memref by address at 24 (address, then 3 fields).
  TestKernel k{
      &desc,
      metadataKernel,
      {memrefArg(4, 2, 0, 0), memrefArg(4, 1, 0, 24, ArgKind::StridedAddress)},
      {1, 1, 1},
      64};
  void *f = loadKernel(k, 16);
  std::vector<float> data(64, 0.0f);
  MemRef view(data.data(), 0);
  view.rank = 2;
  view.offset = 5;
  view.sizes[0] = 3;
  view.sizes[1] = 4;
  view.strides[0] = 10;
  view.strides[1] = 1;
  MemRef byAddress(data.data(), 0);
  byAddress.offset = 9;
  byAddress.sizes[0] = 6;
  byAddress.strides[0] = 2;
  std::vector<void *> params;
  view.append(params);
  byAddress.append(params);
  ASSERT_FALSE(launch(f, {1, 1, 1}, {1, 1, 1}, params));
  const int32_t expected[] = {0, 3, 4, 10, 1};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(metadataSeen.pc[i], expected[i]) << i;
  EXPECT_EQ(metadataSeen.address, reinterpret_cast<uint64_t>(&data[9]));
  EXPECT_EQ(metadataSeen.pc[8], 0);  // offset
  EXPECT_EQ(metadataSeen.pc[9], 6);  // size
  EXPECT_EQ(metadataSeen.pc[10], 2); // stride
  EXPECT_EQ(metadataSeen.resource0, &data[5]);
  EXPECT_EQ(data[5], 42.0f);
  EXPECT_TRUE(metadataSeen.uniformIsTheBlock);

  // 64-bit index: 8-byte fields.
  TestKernel k64{
      &desc,
      metadataKernel,
      {memrefArg(4, 2, 0, 0), memrefArg(4, 1, 0, 48, ArgKind::StridedAddress)},
      {1, 1, 1},
      80};
  void *f64 = loadKernel(k64, 17, /*indexBits=*/64);
  ASSERT_FALSE(launch(f64, {1, 1, 1}, {1, 1, 1}, params));
  int64_t fields[5];
  std::memcpy(fields, metadataSeen.pc, sizeof(fields));
  EXPECT_EQ(fields[0], 0);
  EXPECT_EQ(fields[1], 3);
  EXPECT_EQ(fields[3], 10);
}

//===----------------------------------------------------------------------===//
// Refusals
//===----------------------------------------------------------------------===//

void nopKernel(Invocation *) {}

TEST(SPIRVCPURuntime, LaunchRefusals) {
  static const KernelDesc desc = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "nop", kOneBuffer, nullptr, nullptr};
  void *f = loadKernel({&desc, nopKernel, {memrefArg(4, 1, 0)}, {4, 2, 1}}, 18);
  std::vector<uint32_t> out(4);
  MemRef m(out.data(), 4);
  std::vector<void *> params;
  m.append(params);
  rt::Status s = launch(f, {0, 1, 1}, {4, 2, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'nop' launched with 0 workgroups in x; the "
                         "spirv-cpu runtime allows 1 to 4294967295");
  s = launch(f, {1, -3, 1}, {4, 2, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("-3 workgroups in y"), std::string::npos);
  s = launch(f, {1, 1, 1}, {8, 1, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'nop' was compiled for workgroup size (4, 2, "
                         "1) but is launched with block size (8, 1, 1)");
  s = launch(f, {1, 1, 1}, {4, 2, 1}, {params[0], params[1]});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(),
            "kernel 'nop' takes 5 parameters (memrefs as allocated, aligned, "
            "offset, sizes, strides), but the launch passed 2");
  std::vector<void *> withNull = params;
  withNull[2] = nullptr;
  s = launch(f, {1, 1, 1}, {4, 2, 1}, withNull);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'nop' launched with parameter 2 a null "
                         "pointer");
  s = cpu().launch(f, {1, 1, 1}, {4, 2, 1}, 64, nullptr, params.data(),
                   params.size());
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("dynamic shared memory"), std::string::npos);
  // 2^31 x 2^31 x 4 workgroups wrapped to 0, ran nothing and succeeded.
  s = launch(f, {intptr_t(1) << 31, intptr_t(1) << 31, 4}, {4, 2, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'nop' launched with a grid of 2147483648 x "
                         "2147483648 x 4 workgroups; the spirv-cpu runtime "
                         "runs at most 2^48 in one launch");
  EXPECT_FALSE(launch(f, {1, 1, 1}, {4, 2, 1}, params));
}

/// Copies, fills and launch buffers are checked against the allocations
/// they reach into: past the end, into one they do not start in, or
/// wrapping around the address space.
TEST(SPIRVCPURuntime, RangesAreCheckedAgainstAllocations) {
  auto dev = cpu().allocate(40, false);
  ASSERT_TRUE(dev);
  std::vector<uint8_t> host(4000, 1);
  rt::Status s = cpu().copy(*dev, host.data(), 4000, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "mgpuMemcpy's destination (gpu.memcpy) of 4000 "
                         "bytes at offset 0 of a 40-byte allocation "
                         "(gpu.alloc) reaches past its end");
  s = cpu().copy(host.data(), static_cast<char *>(*dev) + 32, 16, nullptr);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("source (gpu.memcpy) of 16 bytes at offset 32"),
            std::string::npos);
  s = cpu().copy(*dev, host.data(), SIZE_MAX - 8, nullptr);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("wraps around the address space"),
            std::string::npos);
  s = cpu().fill32(*dev, 0, 11, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "mgpuMemset (gpu.memset) of 44 bytes at offset 0 "
                         "of a 40-byte allocation (gpu.alloc) reaches past "
                         "its end");
  EXPECT_FALSE(cpu().fill32(*dev, 0, 10, nullptr));
  EXPECT_FALSE(cpu().copy(host.data(), *dev, 40, nullptr));

  static const KernelDesc desc = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "nop", kOneBuffer, nullptr, nullptr};
  void *f = loadKernel({&desc, nopKernel, {memrefArg(4, 1, 0)}, {4, 2, 1}}, 27);
  MemRef m(static_cast<uint32_t *>(*dev), 11);
  std::vector<void *> params;
  m.append(params);
  s = launch(f, {1, 1, 1}, {4, 2, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("kernel 'nop' argument 0: its memref of 44 "
                             "bytes at offset 0 of a 40-byte allocation"),
            std::string::npos)
      << s.message();
  // Sizes and strides whose extent overflows 64 bits (signed overflow in
  // the decoding before, undefined behaviour).
  MemRef huge(static_cast<uint32_t *>(*dev), int64_t(1) << 62);
  huge.strides[0] = 8;
  params.clear();
  huge.append(params);
  s = launch(f, {1, 1, 1}, {4, 2, 1}, params);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("kernel 'nop' argument 0 has an offset, sizes "
                             "and strides whose extent overflows the address "
                             "space"),
            std::string::npos)
      << s.message();
  EXPECT_FALSE(cpu().free(*dev));
}

TEST(SPIRVCPURuntime, ModuleRefusals) {
  static const KernelDesc registered = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "here", nullptr, nullptr, nullptr};
  static const KernelDesc missing = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "k", nullptr, nullptr, nullptr};
  TestKernel absent{&missing, nopKernel, {}, {1, 1, 1}};
  absent.registered = false;
  std::vector<uint8_t> bytes =
      makeContainer({{&registered, nopKernel, {}, {1, 1, 1}}, absent}, 19);
  auto module = cpu().loadModule(bytes.data(), bytes.size());
  ASSERT_TRUE(bool(module));
  EXPECT_TRUE(bool(cpu().getFunction(*module, "here")));
  auto f = cpu().getFunction(*module, "k");
  ASSERT_FALSE(bool(f));
  EXPECT_NE(
      f.error().message().find("kernel 'k' of this module (SPIR-V hash 0x"),
      std::string::npos)
      << f.error().message();
  EXPECT_NE(f.error().message().find(") was not compiled for the CPU "
                                     "(compile it with the spirv-cpu target)"),
            std::string::npos);
  f = cpu().getFunction(*module, "nothere");
  ASSERT_FALSE(bool(f));
  EXPECT_EQ(f.error().message(), "the GPU module has no kernel 'nothere'; its "
                                 "kernels are 'here', 'k'");
  EXPECT_FALSE(cpu().unloadModule(*module));
  EXPECT_TRUE(cpu().unloadModule(*module));

  // A kernel registered for other SPIR-V is named.
  std::vector<uint8_t> other = makeContainer({absent}, 20);
  module = cpu().loadModule(other.data(), other.size());
  ASSERT_TRUE(bool(module));
  f = cpu().getFunction(*module, "k");
  ASSERT_FALSE(bool(f)); // "k" is registered nowhere yet.
  __kiln_spirv_cpu_register(12345, &missing, nopKernel);
  f = cpu().getFunction(*module, "k");
  ASSERT_FALSE(bool(f));
  EXPECT_NE(f.error().message().find("a kernel of that name is registered "
                                     "for other SPIR-V"),
            std::string::npos);

  const uint32_t raw[] = {container::kSPIRVMagic, 0x00010500, 0, 1, 0};
  auto r = cpu().loadModule(raw, sizeof(raw));
  ASSERT_FALSE(bool(r));
  EXPECT_NE(r.error().message().find("raw SPIR-V"), std::string::npos);
  const char garbage[] = "not a module at all";
  r = cpu().loadModule(garbage, sizeof(garbage));
  ASSERT_FALSE(bool(r));
  EXPECT_NE(r.error().message().find("not a Kiln container"),
            std::string::npos);
  std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + 30);
  r = cpu().loadModule(truncated.data(), truncated.size());
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(r.error().message().rfind("cannot load GPU module: ", 0), 0u);

  static const KernelDesc future = {
      kABIVersion + 1, 0,       0,       0,      0, 0, 0, 0,
      "future",        nullptr, nullptr, nullptr};
  std::vector<uint8_t> newer =
      makeContainer({{&future, nopKernel, {}, {1, 1, 1}}}, 21);
  module = cpu().loadModule(newer.data(), newer.size());
  ASSERT_TRUE(bool(module));
  f = cpu().getFunction(*module, "future");
  ASSERT_FALSE(bool(f));
  EXPECT_NE(f.error().message().find("spirv-cpu ABI version " +
                                     std::to_string(kABIVersion + 1)),
            std::string::npos);

  // A storage buffer the container does not have: an error when the kernel
  // uses it, null when only another kernel of the module does.
  const ResourceDesc unused[] = {
      {ResourceKind::StorageBuffer, 0, 3, 0, "argument 0"}};
  static const KernelDesc unusedDesc = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "other", unused, nullptr, nullptr};
  std::vector<uint8_t> unusedBytes = makeContainer(
      {{&unusedDesc, nopKernel, {memrefArg(4, 1, 0)}, {1, 1, 1}}}, 23);
  module = cpu().loadModule(unusedBytes.data(), unusedBytes.size());
  ASSERT_TRUE(bool(module));
  EXPECT_TRUE(bool(cpu().getFunction(*module, "other")));
  const ResourceDesc stray[] = {
      {ResourceKind::StorageBuffer, 0, 3, 1, "argument 0"}};
  static const KernelDesc strayDesc = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "stray", stray, nullptr, nullptr};
  std::vector<uint8_t> strayBytes = makeContainer(
      {{&strayDesc, nopKernel, {memrefArg(4, 1, 0)}, {1, 1, 1}}}, 22);
  module = cpu().loadModule(strayBytes.data(), strayBytes.size());
  ASSERT_TRUE(bool(module));
  f = cpu().getFunction(*module, "stray");
  ASSERT_FALSE(bool(f));
  EXPECT_NE(f.error().message().find("(set 0, binding 3)"), std::string::npos);
}

TEST(SPIRVCPURuntime, MemoryStreamsAndEvents) {
  void *p = mgpuMemAlloc(100, nullptr, false);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  mgpuMemset32(p, 0x01020304u, 25, nullptr);
  EXPECT_EQ(static_cast<uint32_t *>(p)[24], 0x01020304u);
  mgpuMemset16(p, 0xBEEF, 3, nullptr);
  EXPECT_EQ(static_cast<uint16_t *>(p)[2], 0xBEEF);
  EXPECT_EQ(static_cast<uint16_t *>(p)[3], 0x0102);
  std::vector<uint8_t> host(100);
  mgpuMemcpy(host.data(), p, 100, nullptr);
  EXPECT_EQ(host[0], 0xEF);
  void *stream = mgpuStreamCreate();
  void *event = mgpuEventCreate();
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(stream, event);
  mgpuEventSynchronize(event);
  mgpuStreamSynchronize(stream);
  mgpuStreamSynchronize(nullptr);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(stream);
  mgpuMemHostRegister(host.data(), host.size());
  mgpuMemHostUnregister(host.data());
  mgpuMemFree(p, nullptr);
  rt::Status s = cpu().free(host.data());
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("which mgpuMemAlloc did not return"),
            std::string::npos);
  EXPECT_TRUE(cpu().free(p)); // Twice.
  EXPECT_TRUE(cpu().destroyStream(stream));
}

TEST(SPIRVCPURuntimeDeathTest, EntryPointsExitWithTheError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  static const KernelDesc desc = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "death", nullptr, nullptr, nullptr};
  void *f = loadKernel({&desc, nopKernel, {}, {1, 1, 1}}, 23);
  EXPECT_EXIT(
      mgpuLaunchKernel(f, 1, 0, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0),
      testing::ExitedWithCode(1),
      "kiln-spirv-cpu: kernel 'death' launched with 0 workgroups in "
      "y; the spirv-cpu runtime allows 1 to 4294967295");
  int local = 0;
  EXPECT_EXIT(mgpuMemFree(&local, nullptr), testing::ExitedWithCode(1),
              "kiln-spirv-cpu: mgpuMemFree of 0x");
  const uint32_t raw[] = {container::kSPIRVMagic, 0x00010500, 0, 1, 0};
  EXPECT_EXIT(mgpuModuleLoad(raw, sizeof(raw)), testing::ExitedWithCode(1),
              "kiln-spirv-cpu: cannot load GPU module: it is raw SPIR-V");
}

//===----------------------------------------------------------------------===//
// Timing and timeouts
//===----------------------------------------------------------------------===//

/// A kernel whose frame holds 1 MiB: it fills the array and writes a few
/// elements' sum to its invocation's slot of buffer 0.
void bigFrameKernel(Invocation *inv) {
  volatile uint32_t local[1u << 18];
  uint32_t id = inv->localInvocationId[0];
  for (uint32_t i = 0; i < (1u << 18); ++i)
    local[i] = i + id;
  auto *out = static_cast<uint32_t *>(inv->resources[0]);
  out[id] = local[0] + local[1000] + local[(1u << 18) - 1];
}

/// Stacks are sized from KernelDesc::stackBytes: a 1 MiB frame runs on
/// fibers (with a barrier, and without one, where it would not fit the
/// fast path), and a frame above the target's limit is refused at lookup.
TEST(SPIRVCPURuntime, StacksAreSizedFromTheFrame) {
  KilnSpirvCpuStats before, after;
  for (uint32_t flags : {uint32_t(kUsesBarrier), 0u}) {
    static const KernelDesc withBarrier = {
        kABIVersion, kUsesBarrier,  0,          0,       1,      0, 0,
        1u << 20,    "big_frame_b", kOneBuffer, nullptr, nullptr};
    static const KernelDesc plain = {kABIVersion, 0,          0,       0,
                                     1,           0,          0,       1u << 20,
                                     "big_frame", kOneBuffer, nullptr, nullptr};
    const KernelDesc &desc = flags ? withBarrier : plain;
    void *f =
        loadKernel({&desc, bigFrameKernel, {memrefArg(4, 1, 0)}, {4, 1, 1}},
                   flags ? 28 : 29);
    std::vector<uint32_t> out(4);
    MemRef m(out.data(), 4);
    std::vector<void *> params;
    m.append(params);
    kilnSpirvCpuGetStats(&before);
    ASSERT_FALSE(launch(f, {1, 1, 1}, {4, 1, 1}, params));
    kilnSpirvCpuGetStats(&after);
    EXPECT_EQ(after.fiberLaunches, before.fiberLaunches + 1);
    for (uint32_t id = 0; id < 4; ++id)
      EXPECT_EQ(out[id], 3 * id + 1000 + (1u << 18) - 1);
  }
  static const KernelDesc tooBig = {
      kABIVersion,        0,         0,       0,       0,      0, 0,
      kMaxStackBytes + 1, "too_big", nullptr, nullptr, nullptr};
  std::vector<uint8_t> bytes =
      makeContainer({{&tooBig, nopKernel, {}, {1, 1, 1}}}, 30);
  auto module = cpu().loadModule(bytes.data(), bytes.size());
  ASSERT_TRUE(bool(module));
  auto function = cpu().getFunction(*module, "too_big");
  ASSERT_FALSE(bool(function));
  EXPECT_EQ(function.error().message(),
            "kernel 'too_big': its KernelDesc asks for 4194305 bytes of stack "
            "per invocation; the spirv-cpu runtime gives at most 4194304");
}

TEST(SPIRVCPURuntime, TimingCallback) {
  static const KernelDesc desc = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "timed", nullptr, nullptr, nullptr};
  void *f = loadKernel({&desc, nopKernel, {}, {2, 1, 1}}, 24);
  static std::string seenKernel;
  static double seenUs = -1;
  ASSERT_FALSE(cpu().setTimingCallback(
      [](void *, const char *kernel, double us) {
        seenKernel = kernel;
        seenUs = us;
      },
      nullptr));
  ASSERT_FALSE(launch(f, {4, 1, 1}, {2, 1, 1}, {}));
  ASSERT_FALSE(cpu().setTimingCallback(nullptr, nullptr));
  EXPECT_EQ(seenKernel, "timed");
  EXPECT_GE(seenUs, 0.0);
}

std::atomic<bool> releaseSpin{false};

void spinKernel(Invocation *inv) {
  if (inv->workgroupId[0] == 0)
    while (!releaseSpin)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(SPIRVCPURuntime, Timeout) {
  static const KernelDesc desc = {
      kABIVersion, kUsesBarrier, 0,       0,       0,      0, 0,
      0,           "spin",       nullptr, nullptr, nullptr};
  std::vector<uint8_t> bytes =
      makeContainer({{&desc, spinKernel, {}, {2, 1, 1}}}, 25, 32);
  rt::Expected<void *> module = cpu().loadModule(bytes.data(), bytes.size());
  ASSERT_TRUE(bool(module));
  rt::Expected<void *> f = cpu().getFunction(*module, "spin");
  ASSERT_TRUE(bool(f));
  releaseSpin = false; // Also when the test repeats.
  setenv("KILN_TIMEOUT", "0.2", 1);
  rt::Status s = launch(*f, {4, 1, 1}, {2, 1, 1}, {});
  unsetenv("KILN_TIMEOUT");
  ASSERT_TRUE(s);
  EXPECT_EQ(s.kind(), rt::ErrorKind::Timeout);
  EXPECT_EQ(s.message(), "kernel 'spin' did not complete within 0.2 s "
                         "(KILN_TIMEOUT) on device 'spirv-cpu'");
  // The worker still runs it: its module may be unloaded meanwhile (the
  // launch holds the kernel), and the next launch starts once the worker
  // is free.
  EXPECT_FALSE(cpu().unloadModule(*module));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  releaseSpin = true;
  static const KernelDesc next = {
      kABIVersion,     0,       0,       0,      0, 0, 0, 0,
      "after_timeout", nullptr, nullptr, nullptr};
  void *g = loadKernel({&next, nopKernel, {}, {1, 1, 1}}, 26);
  EXPECT_FALSE(launch(g, {8, 1, 1}, {1, 1, 1}, {}));
  setenv("KILN_TIMEOUT", "soon", 1);
  s = launch(g, {1, 1, 1}, {1, 1, 1}, {});
  unsetenv("KILN_TIMEOUT");
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "KILN_TIMEOUT='soon' is not a positive number of "
                         "seconds");
}

} // namespace

int main(int argc, char **argv) {
  // Fewer workers than the grids have workgroups.
  setenv("KILN_CPU_THREADS", "3", 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

/// Options a program sets win over the environment and are refused once
/// the workers they size run.
TEST(SPIRVCPURuntime, OptionsAreSetBeforeTheWorkersStart) {
  ASSERT_FALSE(cpu().initialize());
  kiln::rt::Options options;
  options.threads = "2";
  kiln::rt::Status late = cpu().configure(options);
  ASSERT_TRUE(late);
  EXPECT_NE(late.message().find("worker threads are set before it starts"),
            std::string::npos)
      << late.message();
  kiln::rt::Options timing;
  timing.timing = false;
  EXPECT_FALSE(cpu().configure(timing));
}

//===----------------------------------------------------------------------===//
// Handles are looked up
//===----------------------------------------------------------------------===//

/// A kernel handle is looked up among the kernels of the loaded modules at
/// each launch: null, foreign and stale (its module unloaded) ones are
/// refused instead of read.
TEST(SPIRVCPURuntime, StaleAndForeignKernelHandlesAreRefused) {
  static const KernelDesc desc = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "stale", nullptr, nullptr, nullptr};
  std::vector<uint8_t> bytes =
      makeContainer({{&desc, nopKernel, {}, {1, 1, 1}}}, 101);
  auto module = cpu().loadModule(bytes.data(), bytes.size());
  ASSERT_TRUE(bool(module));
  auto f = cpu().getFunction(*module, "stale");
  ASSERT_TRUE(bool(f));
  EXPECT_FALSE(launch(*f, {1, 1, 1}, {1, 1, 1}, {}));
  // The same handle at the second lookup.
  auto again = cpu().getFunction(*module, "stale");
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(*again, *f);

  rt::Status s = launch(nullptr, {1, 1, 1}, {1, 1, 1}, {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "mgpuLaunchKernel with a null function");
  int foreign = 0;
  s = launch(&foreign, {1, 1, 1}, {1, 1, 1}, {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.kind(), rt::ErrorKind::InvalidArgument);
  EXPECT_NE(s.message().find(", which is no kernel of a loaded module "
                             "(mgpuModuleGetFunction did not return it, or "
                             "its module was unloaded)"),
            std::string::npos)
      << s.message();
  // The module handle is no kernel either.
  EXPECT_TRUE(launch(*module, {1, 1, 1}, {1, 1, 1}, {}));

  ASSERT_FALSE(cpu().unloadModule(*module));
  s = launch(*f, {1, 1, 1}, {1, 1, 1}, {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.kind(), rt::ErrorKind::InvalidArgument);
  EXPECT_EQ(s.message().rfind("mgpuLaunchKernel of 0x", 0), 0u) << s.message();
  EXPECT_NE(s.message().find("which is no kernel of a loaded module"),
            std::string::npos);
  auto stale = cpu().getFunction(*module, "stale");
  ASSERT_FALSE(bool(stale));
  EXPECT_NE(stale.error().message().find("mgpuModuleGetFunction on 0x"),
            std::string::npos);
  EXPECT_NE(stale.error().message().find(", which is no loaded module"),
            std::string::npos);

  // Loaded again, the module's kernel is a new handle that launches.
  module = cpu().loadModule(bytes.data(), bytes.size());
  ASSERT_TRUE(bool(module));
  f = cpu().getFunction(*module, "stale");
  ASSERT_TRUE(bool(f));
  EXPECT_FALSE(launch(*f, {1, 1, 1}, {1, 1, 1}, {}));
  EXPECT_FALSE(cpu().unloadModule(*module));
}

TEST(SPIRVCPURuntime, StreamEventAndModuleHandlesAreRefused) {
  int foreign = 0;
  rt::Status s = cpu().synchronize(&foreign);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuStreamSynchronize on 0x"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find(", which is no stream"), std::string::npos);
  auto stream = cpu().createStream();
  ASSERT_TRUE(bool(stream));
  auto event = cpu().createEvent();
  ASSERT_TRUE(bool(event));
  // A stream is no event and an event no stream.
  s = cpu().recordEvent(*stream, *stream);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuEventRecord on"), std::string::npos);
  EXPECT_NE(s.message().find(", which is no event"), std::string::npos);
  s = cpu().streamWaitEvent(*event, *event);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuStreamWaitEvent on"), std::string::npos);
  EXPECT_NE(s.message().find(", which is no stream"), std::string::npos);
  s = cpu().fill32(&foreign, 0, 1, *event);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuMemset on"), std::string::npos);
  EXPECT_EQ(foreign, 0);
  EXPECT_FALSE(cpu().destroyEvent(*event));
  s = cpu().synchronizeEvent(*event);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuEventSynchronize on"), std::string::npos);
  s = cpu().destroyEvent(*event);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuEventDestroy on"), std::string::npos);
  EXPECT_FALSE(cpu().destroyStream(*stream));
  s = cpu().destroyStream(*stream);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuStreamDestroy of"), std::string::npos);

  s = cpu().unloadModule(&foreign);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuModuleUnload of 0x"), std::string::npos);
  EXPECT_NE(s.message().find(", which is no loaded module"), std::string::npos);
  auto f = cpu().getFunction(&foreign, "k");
  ASSERT_FALSE(bool(f));
  EXPECT_NE(f.error().message().find(", which is no loaded module"),
            std::string::npos);
  auto m = cpu().loadModule(nullptr, 16);
  ASSERT_FALSE(bool(m));
  EXPECT_EQ(m.error().message(), "cannot load GPU module: null data pointer");
  static const KernelDesc desc = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "named", nullptr, nullptr, nullptr};
  std::vector<uint8_t> bytes =
      makeContainer({{&desc, nopKernel, {}, {1, 1, 1}}}, 102);
  m = cpu().loadModule(bytes.data(), bytes.size());
  ASSERT_TRUE(bool(m));
  f = cpu().getFunction(*m, nullptr);
  ASSERT_FALSE(bool(f));
  EXPECT_EQ(f.error().message(),
            "mgpuModuleGetFunction with a null kernel name");
  EXPECT_FALSE(cpu().unloadModule(*m));

  // The process's device list has one entry unless KILN_SPIRV_CPU_DEVICE
  // lists more.
  EXPECT_FALSE(cpu().setDefaultDevice(0));
  s = cpu().setDefaultDevice(1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message().rfind("mgpuSetDefaultDevice(1): the program has 1 "
                              "device (",
                              0),
            0u)
      << s.message();
}

TEST(SPIRVCPURuntime, CopiesAndFillsAreChecked) {
  auto a = cpu().allocate(64, false);
  auto b = cpu().allocate(64, false);
  ASSERT_TRUE(bool(a) && bool(b));
  rt::Status s = cpu().copy(nullptr, *a, 8, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "mgpuMemcpy of 8 bytes with a null pointer");
  EXPECT_FALSE(cpu().copy(nullptr, nullptr, 0, nullptr)); // Nothing to copy.
  s = cpu().fill(nullptr, 0, 2, 4, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "mgpuMemset16 of a null pointer");
  s = cpu().fill(*a, 0, 4, SIZE_MAX / 2, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "mgpuMemset32 of " + std::to_string(SIZE_MAX / 2) +
                             " elements overflows a size");
  // A range that starts before an allocation and reaches into it.
  std::vector<uint8_t> host(64);
  auto *before = static_cast<uint8_t *>(*b) - 8;
  s = cpu().copy(host.data(), before, 16, nullptr);
  // (Past the end of `a` where the two are adjacent.)
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("-byte allocation (gpu.alloc)"), std::string::npos)
      << s.message();
  ASSERT_FALSE(cpu().fill32(*a, 0x01020304u, 16, nullptr));
  auto us = cpu().deviceCopy(*b, *a, 64);
  ASSERT_TRUE(bool(us)) << us.error().message();
  EXPECT_GE(*us, 0.0);
  EXPECT_EQ(static_cast<uint32_t *>(*b)[15], 0x01020304u);
  auto bad = cpu().deviceCopy(*b, *a, 65);
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(bad.error().message().find("reaches past its end"),
            std::string::npos);
  EXPECT_FALSE(cpu().free(*a));
  EXPECT_FALSE(cpu().free(*b));
  EXPECT_FALSE(cpu().free(nullptr));
}

/// What getFunction checks in a registered KernelDesc, and the launch's
/// checks no other test reaches.
TEST(SPIRVCPURuntime, KernelDescsAreChecked) {
  auto refusal = [](const KernelDesc *desc, std::vector<ArgInfo> args,
                    uint32_t seed) {
    std::vector<uint8_t> bytes =
        makeContainer({{desc, nopKernel, std::move(args), {1, 1, 1}}}, seed);
    auto module = cpu().loadModule(bytes.data(), bytes.size());
    EXPECT_TRUE(bool(module));
    auto f = cpu().getFunction(*module, desc->name);
    EXPECT_FALSE(bool(f));
    std::string message = f ? std::string() : f.error().message();
    EXPECT_FALSE(cpu().unloadModule(*module));
    return message;
  };
  static const KernelDesc noTable = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "no_table", nullptr, nullptr, nullptr};
  EXPECT_EQ(refusal(&noTable, {}, 103),
            "kernel 'no_table': its KernelDesc counts resources, workgroup "
            "variables or sites but has no table of them");
  static const WorkgroupVarDesc outside[] = {{8, 16, "workgroup variable 0"}};
  static const KernelDesc outsideDesc = {
      kABIVersion, 0, 16, 0, 0, 1, 0, 0, "outside", nullptr, outside, nullptr};
  EXPECT_EQ(refusal(&outsideDesc, {}, 104),
            "kernel 'outside': workgroup variable 0 lies outside the "
            "kernel's 16 bytes of workgroup memory");
  static const KernelDesc dynamicDesc = {
      kABIVersion, kDynamicWorkgroup, 0,       0,       0,      0, 0,
      0,           "dynamic",         nullptr, nullptr, nullptr};
  EXPECT_EQ(refusal(&dynamicDesc, {}, 105),
            "kernel 'dynamic': its compiled code and its container disagree "
            "on whether it has dynamic workgroup memory");
  static const ResourceDesc odd[] = {{ResourceKind(7), 0, 0, 1, "argument 0"}};
  static const KernelDesc oddDesc = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "odd", odd, nullptr, nullptr};
  EXPECT_EQ(refusal(&oddDesc, {memrefArg(4, 1, 0)}, 106),
            "kernel 'odd': resource 0 has unknown kind 7");

  // 1024 x 1024 x 2 invocations: the block matches, the count does not.
  static const KernelDesc wide = {
      kABIVersion, 0, 0, 0, 0, 0, 0, 0, "wide", nullptr, nullptr, nullptr};
  void *f = loadKernel({&wide, nopKernel, {}, {1024, 1024, 2}}, 107);
  ASSERT_NE(f, nullptr);
  rt::Status s = launch(f, {1, 1, 1}, {1024, 1024, 2}, {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'wide' has 2097152 invocations per "
                         "workgroup; the spirv-cpu runtime runs 1 to 1048576");
  static const KernelDesc one = {
      kABIVersion, 0, 0, 0, 1, 0, 0, 0, "one", kOneBuffer, nullptr, nullptr};
  f = loadKernel({&one, nopKernel, {memrefArg(4, 1, 0)}, {1, 1, 1}}, 108);
  ASSERT_NE(f, nullptr);
  s = cpu().launch(f, {1, 1, 1}, {1, 1, 1}, 0, nullptr, nullptr, 5);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'one' launched with a null parameter array");
  s = cpu().launch(f, {1, 1, 1}, {1, 1, 1}, -4, nullptr, nullptr, 5);
  ASSERT_TRUE(s);
  EXPECT_EQ(s.message(), "kernel 'one' launched with -4 bytes of dynamic "
                         "shared memory, but it has none (no "
                         "gpu.dynamic_shared_memory)");
  int foreign = 0;
  s = cpu().launch(f, {1, 1, 1}, {1, 1, 1}, 0, &foreign, nullptr, 5);
  ASSERT_TRUE(s);
  EXPECT_NE(s.message().find("mgpuLaunchKernel on 0x"), std::string::npos);
  EXPECT_NE(s.message().find(", which is no stream"), std::string::npos);
}

/// One text per encodeScalar refusal, shared by the Vulkan and spirv-cpu
/// launches: an index past 32 bits names the kernel, the argument and the
/// option that widens it.
TEST(KernelArgs, ScalarEncodingErrorsNameTheKernelAndArgument) {
  container::ArgInfo index;
  index.kind = ArgKind::Scalar;
  index.scalarType = container::ScalarType::Index;
  index.size = 4;
  int64_t big = int64_t(1) << 40;
  uint8_t field[8];
  unsigned bytes = 0;
  rt::ScalarEncoding encoding = rt::encodeScalar(index, &big, field, bytes);
  EXPECT_EQ(encoding, rt::ScalarEncoding::IndexOverflow);
  EXPECT_EQ(rt::scalarEncodingError(encoding, "k", 2),
            "kernel 'k' argument 2 (index) does not fit the kernel's 32-bit "
            "index (compile with use-64bit-index)");
  EXPECT_EQ(rt::scalarEncodingError(rt::ScalarEncoding::UnknownType, "k", 0),
            "kernel 'k' has an argument of unknown scalar type; the container "
            "is corrupt");
  int64_t small = 7;
  EXPECT_EQ(rt::encodeScalar(index, &small, field, bytes),
            rt::ScalarEncoding::Ok);
  EXPECT_EQ(rt::scalarEncodingError(rt::ScalarEncoding::Ok, "k", 0), "");
}
