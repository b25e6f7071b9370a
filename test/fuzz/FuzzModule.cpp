//===- FuzzModule.cpp - libFuzzer: the Vulkan module load -----------------===//
//
// LibFuzzer target: the Vulkan runtime's module load.
//
// What mgpuModuleLoad and the first kernel lookup check before a driver
// sees a module: the container or raw SPIR-V, its instruction stream, entry
// points and workgroup sizes, the argument table against the SPIR-V
// (inspectModule), then SPIRV-Tools' validation for Vulkan 1.3. Any bytes
// must be refused with a message or accepted; no crash, no out-of-bounds
// read.
//
// Built as kiln-fuzz-pipeline (KILN_FUZZ_PIPELINES), a module that passes
// all of that goes on to the driver: the runtime loads it and creates every
// kernel's pipeline on the first Vulkan device (lavapipe in CI), where a
// table that disagreed with its SPIR-V used to crash. Kernels are not
// launched: mutated SPIR-V may not terminate, and a driver thread cannot be
// stopped.
//
// Both use a mutator that knows the container: half of the mutations of a
// container change one field of its argument table (kind, set, binding,
// element size, push-constant offset or size, base alignment, workgroup
// memory) or one SPIR-V operand, and write it back canonically, so that
// they reach the checks past the parser.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/Vulkan/Context.h"
#include "../../lib/Runtime/Vulkan/ValidateSPIRV.h"
#include "kiln/Contract/Container.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace kiln::vkrt;
namespace container = kiln::container;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {
/// Changes one field of `m`'s table or one word of its SPIR-V; false when
/// there was nothing to change.
bool mutateTable(container::ModuleInfo &m, std::mt19937 &rng) {
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  // Values a field takes when it is wrong in an interesting way.
  auto value = [&](uint32_t old) -> uint32_t {
    switch (pick(6)) {
    case 0:
      return old + 1;
    case 1:
      return old ? old - 1 : 1;
    case 2:
      return old * 2;
    case 3:
      return uint32_t(pick(5));
    case 4:
      return old + 4;
    default:
      return 0xFFFFFFFFu;
    }
  };
  if (m.kernels.empty())
    return false;
  container::KernelInfo &k = m.kernels[pick(m.kernels.size())];
  if (pick(8) == 0 && !m.spirv.empty()) {
    size_t i = 5 + pick(m.spirv.size() > 5 ? m.spirv.size() - 5 : 1);
    if (i < m.spirv.size() && (m.spirv[i] >> 16) == 0)
      m.spirv[i] = value(m.spirv[i]);
    else if (i < m.spirv.size())
      m.spirv[i] = (m.spirv[i] & 0xFFFF0000u) | (value(m.spirv[i]) & 0xFFFF);
    return true;
  }
  switch (pick(k.args.empty() ? 3 : 10)) {
  case 0:
    k.pushConstantSize = value(k.pushConstantSize) & ~3u;
    return true;
  case 1:
    k.dynamicWorkgroupElementBytes = uint32_t(1) << pick(4);
    if (pick(2))
      k.dynamicWorkgroupElementBytes = 0;
    return true;
  case 2:
    k.workgroupSize[pick(3)] = value(k.workgroupSize[0]);
    return true;
  }
  container::ArgInfo &a = k.args[pick(k.args.size())];
  switch (pick(8)) {
  case 0:
    a.kind = container::ArgKind(pick(container::kMaxArgKind + 1));
    break;
  case 1:
    a.set = value(a.set) % 8;
    break;
  case 2:
    a.binding = value(a.binding) % 8;
    break;
  case 3:
    a.size = uint32_t(1) << pick(4);
    break;
  case 4:
    a.pushConstantOffset = a.pushConstantOffset == container::kNoPushConstant
                               ? 0
                               : value(a.pushConstantOffset);
    break;
  case 5:
    a.baseAlignment = pick(2) ? 0 : uint32_t(8) << pick(3);
    break;
  case 6:
    a.rank = value(a.rank) % 5;
    break;
  default:
    std::swap(a, k.args[pick(k.args.size())]);
    break;
  }
  return true;
}

#ifdef KILN_FUZZ_PIPELINES
/// The runtime on the first device, or null when there is none (then the
/// target checks what it can without one).
kiln::rt::Runtime *runtime() {
  static kiln::rt::Runtime *rt = [] {
    kiln::rt::Runtime *r = kilnVulkanRuntime();
    return r && r->initialize().ok() ? r : nullptr;
  }();
  return rt;
}
#endif
} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  container::ModuleInfo m;
  std::string error;
  if (rng() % 2 && container::parse(data, size, m, error) &&
      mutateTable(m, rng)) {
    std::vector<uint8_t> bytes = container::write(m);
    if (bytes.size() <= maxSize) {
      std::memcpy(data, bytes.data(), bytes.size());
      return bytes.size();
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Module module;
  std::string error;
  if (!inspectModule(data, size, module, error)) {
    if (error.empty()) {
      std::fprintf(stderr, "a module was refused without a message\n");
      std::abort();
    }
    return 0;
  }
  std::string envName;
  error.clear();
  if (!validateSPIRV(module.info.spirv, VK_API_VERSION_1_3, envName, error)) {
    if (error.empty()) {
      std::fprintf(stderr, "validation failed without a message\n");
      std::abort();
    }
    return 0;
  }
#ifdef KILN_FUZZ_PIPELINES
  kiln::rt::Runtime *rt = runtime();
  if (!rt || !module.isContainer)
    return 0;
  kiln::rt::Expected<void *> loaded = rt->loadModule(data, size);
  if (!loaded)
    return 0;
  for (const container::KernelInfo &k : module.info.kernels)
    (void)rt->getFunction(*loaded, k.name.c_str()); // Errors are answers.
  if (kiln::rt::Status s = rt->unloadModule(*loaded)) {
    std::fprintf(stderr, "unloading a loaded module failed: %s\n",
                 s.message().c_str());
    std::abort();
  }
#endif
  return 0;
}
