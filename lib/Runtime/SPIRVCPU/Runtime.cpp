//===- Runtime.cpp - The mgpu* ABI on the host CPU ------------------------===//
//
// The spirv-cpu runtime: the registry that compiled kernels join from their
// constructors, modules (Kiln containers matched to registered kernels by
// the hash of their SPIR-V), argument decoding (as the Vulkan runtime does,
// through KernelArgs.h) and host memory. As the Vulkan runtime, one
// implementation behind two doors: kilnSpirvCpuRuntime() returns errors,
// the mgpu* entry points report them and exit.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "../Boundary.h"
#include "../EnvFlag.h"
#include "../Format.h"
#include "../KernelArgs.h"
#include "../Ranges.h"
#include "../Timeout.h"
#include "Executor.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace kiln;
using namespace kiln::spirvcpu;
using container::ArgKind;
using rt::Expected;
using rt::Status;

namespace {
//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

struct Registered {
  const KernelDesc *desc = nullptr;
  KernelFn fn = nullptr;
};

/// What compiled code registered: constructed at the first registration,
/// whatever the order of the program's constructors, and never destroyed.
struct Registry {
  std::mutex mutex;
  std::map<std::pair<uint64_t, std::string>, Registered> kernels;
};

Registry &registry() {
  static Registry *instance = new Registry();
  return *instance;
}

//===----------------------------------------------------------------------===//
// Modules, streams, events
//===----------------------------------------------------------------------===//

struct Module {
  container::ModuleInfo info;
  uint64_t hash = 0;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
};

struct Stream {};
struct Event {};

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%016llx", (unsigned long long)value);
  return text;
}

std::string pointerText(const void *p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}

/// The CPU's model name from /proc/cpuinfo, or a generic one.
std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        size_t start = line.find_first_not_of(" \t", colon + 1);
        if (start != std::string::npos)
          return line.substr(start);
      }
    }
  return "host CPU";
}

/// Checks a registered kernel against the container's entry and maps its
/// resources to arguments.
Status bindKernel(Kernel &kernel, const container::KernelInfo &info) {
  const KernelDesc &desc = *kernel.desc;
  std::string prefix = "kernel '" + kernel.name + "': ";
  if (desc.abiVersion != kABIVersion)
    return KILN_ERROR(InvalidArgument,
                      prefix + "its compiled code has spirv-cpu ABI version " +
                          std::to_string(desc.abiVersion) +
                          ", but this runtime implements version " +
                          std::to_string(kABIVersion) +
                          "; recompile it with this Kiln");
  if (!desc.name || kernel.name != desc.name)
    return KILN_ERROR(InvalidArgument,
                      prefix + "it is registered with a KernelDesc named '" +
                          (desc.name ? desc.name : "(null)") + "'");
  if ((desc.numResources && !desc.resources) ||
      (desc.numWorkgroupVars && !desc.workgroupVars) ||
      (desc.numSites && !desc.sites))
    return KILN_ERROR(InvalidArgument,
                      prefix + "its KernelDesc counts resources, workgroup "
                               "variables or sites but has no table of them");
  if (desc.stackBytes > kMaxStackBytes)
    return KILN_ERROR(InvalidArgument,
                      prefix + "its KernelDesc asks for " +
                          std::to_string(desc.stackBytes) +
                          " bytes of stack per invocation; the spirv-cpu "
                          "runtime gives at most " +
                          std::to_string(kMaxStackBytes));
  for (uint32_t i = 0; i < desc.numWorkgroupVars; ++i) {
    const WorkgroupVarDesc &var = desc.workgroupVars[i];
    if (uint64_t(var.offset) + var.bytes > desc.workgroupMemoryBytes)
      return KILN_ERROR(InvalidArgument,
                        prefix + "workgroup variable " + std::to_string(i) +
                            " lies outside the kernel's " +
                            std::to_string(desc.workgroupMemoryBytes) +
                            " bytes of workgroup memory");
  }
  bool dynamic = desc.flags & kDynamicWorkgroup;
  if (dynamic != (info.dynamicWorkgroupElementBytes != 0))
    return KILN_ERROR(InvalidArgument,
                      prefix + "its compiled code and its container disagree "
                               "on whether it has dynamic workgroup memory");
  if (dynamic && (desc.numWorkgroupVars == 0 ||
                  desc.workgroupVars[desc.numWorkgroupVars - 1].offset !=
                      desc.workgroupMemoryBytes ||
                  desc.workgroupVars[desc.numWorkgroupVars - 1].bytes != 0))
    return KILN_ERROR(InvalidArgument,
                      prefix + "its dynamic workgroup memory is not its last "
                               "workgroup variable, after the others");
  for (uint32_t i = 0; i < desc.numResources; ++i) {
    const ResourceDesc &r = desc.resources[i];
    if (r.kind == ResourceKind::UniformBuffer) {
      kernel.resourceArgs.push_back(-1);
      continue;
    }
    if (r.kind != ResourceKind::StorageBuffer)
      return KILN_ERROR(InvalidArgument, prefix + "resource " +
                                             std::to_string(i) +
                                             " has unknown kind " +
                                             std::to_string(uint32_t(r.kind)));
    int found = -1;
    for (size_t a = 0; a < info.args.size(); ++a)
      if (container::isDescriptorKind(info.args[a].kind) &&
          info.args[a].set == r.set && info.args[a].binding == r.binding)
        found = int(a);
    // A resource only another kernel of the module uses stays null.
    if (found < 0 && !r.used) {
      kernel.resourceArgs.push_back(Kernel::kUnusedResource);
      continue;
    }
    if (found < 0)
      return KILN_ERROR(
          InvalidArgument,
          prefix + "its compiled code reads a storage buffer at (set " +
              std::to_string(r.set) + ", binding " + std::to_string(r.binding) +
              "), but the container has no memref argument there; the "
              "compiled code and the container differ");
    kernel.resourceArgs.push_back(found);
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// The runtime
//===----------------------------------------------------------------------===//

class SPIRVCPURuntime final : public rt::Runtime {
public:
  SPIRVCPURuntime() { envTiming = rt::envFlag("KILN_SPIRV_CPU_TIMING"); }

  const char *backend() const override { return "spirv-cpu"; }

  Status configure(const rt::Options &given) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (given.threads && workersStarted)
      return KILN_ERROR(InvalidArgument,
                        "the spirv-cpu runtime's worker threads are set "
                        "before it starts; its workers run already");
    options.merge(given);
    envTiming = rt::settingFlag(options.timing, "KILN_SPIRV_CPU_TIMING");
    return Status::success();
  }

  Status initialize() override {
    KILN_ASSIGN_OR_RETURN(Executor * executor, workers());
    (void)executor;
    return Status::success();
  }

  /// The executor, its workers started at the first call with the threads
  /// the options or KILN_CPU_THREADS ask for.
  Expected<Executor *> workers() {
    std::optional<std::string> threads;
    {
      std::lock_guard<std::mutex> lock(mutex);
      threads = options.threads;
      workersStarted = true;
    }
    return Executor::get(rt::settingText(threads, "KILN_CPU_THREADS"));
  }

  Expected<std::string> describeDevices() override {
    std::optional<std::string> given;
    {
      std::lock_guard<std::mutex> lock(mutex);
      given = options.threads;
    }
    KILN_ASSIGN_OR_RETURN(unsigned threads,
                          Executor::configuredThreads(
                              rt::settingText(given, "KILN_CPU_THREADS")));
    std::string text;
    rt::appendf(text, "0: %s\n", cpuModel().c_str());
    rt::appendf(text,
                "  type: CPU (spirv-cpu: kernels compiled to host code)\n");
    rt::appendf(text, "  worker threads: %u%s\n", threads,
                given                             ? " (as the program asked)"
                : std::getenv("KILN_CPU_THREADS") ? " (KILN_CPU_THREADS)"
                                                  : " (hardware concurrency)");
    rt::appendf(text, "  subgroup size: %u\n", kSubgroupSize);
    rt::appendf(text, "  fiber stack: %zu KiB per invocation\n",
                kFiberStackBytes / 1024);
    return text;
  }

  Expected<std::string> deviceTarget() override {
    return std::string("spirv-cpu");
  }

  Expected<void *> loadModule(const void *data, size_t size) override {
    if (!data)
      return KILN_ERROR(InvalidArgument,
                        "cannot load GPU module: null data pointer");
    if (size >= 4) {
      uint32_t first;
      std::memcpy(&first, data, 4);
      if (first == container::kSPIRVMagic)
        return KILN_ERROR(
            InvalidArgument,
            "cannot load GPU module: it is raw SPIR-V, which the spirv-cpu "
            "runtime cannot run; it runs Kiln containers whose kernels were "
            "compiled for the CPU (compile it with the spirv-cpu target)");
    }
    if (!container::isContainer(data, size))
      return KILN_ERROR(InvalidArgument,
                        "cannot load GPU module: it is not a Kiln container "
                        "(" +
                            std::to_string(size) + " bytes)");
    auto module = std::make_unique<Module>();
    std::string error;
    if (!container::parse(data, size, module->info, error))
      return KILN_ERROR(InvalidArgument, "cannot load GPU module: " + error);
    module->hash =
        hashSPIRV(module->info.spirv.data(), module->info.spirv.size());
    std::lock_guard<std::mutex> lock(mutex);
    Module *raw = module.release();
    modules.insert(raw);
    return static_cast<void *>(raw);
  }

  Status unloadModule(void *handle) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto *module = static_cast<Module *>(handle);
    if (!modules.erase(module))
      return KILN_ERROR(InvalidArgument, "mgpuModuleUnload of " +
                                             pointerText(handle) +
                                             ", which is no loaded module");
    delete module;
    return Status::success();
  }

  Expected<void *> getFunction(void *handle, const char *name) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto *module = static_cast<Module *>(handle);
    if (!modules.count(module))
      return KILN_ERROR(InvalidArgument, "mgpuModuleGetFunction on " +
                                             pointerText(handle) +
                                             ", which is no loaded module");
    if (!name)
      return KILN_ERROR(InvalidArgument,
                        "mgpuModuleGetFunction with a null kernel name");
    auto cached = module->kernels.find(name);
    if (cached != module->kernels.end())
      return static_cast<void *>(cached->second.get());
    const container::KernelInfo *info = module->info.findKernel(name);
    if (!info) {
      std::string names;
      for (const container::KernelInfo &k : module->info.kernels)
        names += (names.empty() ? "'" : ", '") + k.name + "'";
      return KILN_ERROR(InvalidArgument, "the GPU module has no kernel '" +
                                             std::string(name) +
                                             "'; its kernels are " + names);
    }
    Registered found;
    std::vector<uint64_t> otherHashes;
    {
      Registry &r = registry();
      std::lock_guard<std::mutex> registryLock(r.mutex);
      auto it = r.kernels.find({module->hash, name});
      if (it != r.kernels.end())
        found = it->second;
      for (const auto &entry : r.kernels)
        if (entry.first.second == name && entry.first.first != module->hash)
          otherHashes.push_back(entry.first.first);
    }
    if (!found.desc || !found.fn)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + std::string(name) + "' of this module (SPIR-V hash " +
              hex(module->hash) +
              ") was not compiled for the CPU (compile it with the spirv-cpu "
              "target)" +
              (otherHashes.empty()
                   ? std::string()
                   : "; a kernel of that name is registered for other SPIR-V "
                     "(hash " +
                         hex(otherHashes[0]) +
                         "), so the program's compiled kernels and its "
                         "embedded module differ"));
    auto kernel = std::make_unique<Kernel>();
    kernel->name = name;
    kernel->info = info;
    kernel->indexBits = module->info.indexBits;
    kernel->desc = found.desc;
    kernel->fn = found.fn;
    KILN_TRY(bindKernel(*kernel, *info));
    Kernel *raw = kernel.get();
    module->kernels[name] = std::move(kernel);
    return static_cast<void *>(raw);
  }

  Status launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                int32_t sharedMemoryBytes, void *stream, void **params,
                size_t paramsCount) override;

  Expected<void *> createStream() override {
    std::lock_guard<std::mutex> lock(mutex);
    auto *stream = new Stream();
    streams.insert(stream);
    return static_cast<void *>(stream);
  }

  Status destroyStream(void *stream) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (!streams.erase(static_cast<Stream *>(stream)))
      return KILN_ERROR(InvalidArgument, "mgpuStreamDestroy of " +
                                             pointerText(stream) +
                                             ", which is no stream");
    delete static_cast<Stream *>(stream);
    return Status::success();
  }

  Status synchronize(void *stream) override {
    // Everything completed at its call.
    return checkStream(stream, "mgpuStreamSynchronize");
  }

  Status checkStream(void *stream, const char *call) {
    std::lock_guard<std::mutex> lock(mutex);
    if (stream && !streams.count(static_cast<Stream *>(stream)))
      return KILN_ERROR(InvalidArgument, std::string(call) + " on " +
                                             pointerText(stream) +
                                             ", which is no stream");
    return Status::success();
  }

  Expected<void *> createEvent() override {
    std::lock_guard<std::mutex> lock(mutex);
    auto *event = new Event();
    events.insert(event);
    return static_cast<void *>(event);
  }

  Status checkEvent(void *event, const char *call, bool destroy = false) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = events.find(static_cast<Event *>(event));
    if (it == events.end())
      return KILN_ERROR(InvalidArgument, std::string(call) + " on " +
                                             pointerText(event) +
                                             ", which is no event");
    if (destroy) {
      events.erase(it);
      delete static_cast<Event *>(event);
    }
    return Status::success();
  }

  // Launches complete before they return: events and waits order nothing,
  // but their handles are checked.
  Status destroyEvent(void *event) override {
    return checkEvent(event, "mgpuEventDestroy", /*destroy=*/true);
  }
  Status recordEvent(void *event, void *stream) override {
    KILN_TRY(checkEvent(event, "mgpuEventRecord"));
    return checkStream(stream, "mgpuEventRecord");
  }
  Status synchronizeEvent(void *event) override {
    return checkEvent(event, "mgpuEventSynchronize");
  }
  Status streamWaitEvent(void *stream, void *event) override {
    KILN_TRY(checkStream(stream, "mgpuStreamWaitEvent"));
    return checkEvent(event, "mgpuStreamWaitEvent");
  }

  Expected<void *> allocate(uint64_t bytes, bool) override {
    uint64_t rounded = std::max<uint64_t>((bytes + 63) / 64 * 64, 64);
    if (rounded < bytes)
      return KILN_ERROR(OutOfMemory,
                        "mgpuMemAlloc of " + std::to_string(bytes) + " bytes");
    void *p = std::aligned_alloc(64, size_t(rounded));
    if (!p)
      return KILN_ERROR(OutOfMemory, "mgpuMemAlloc of " +
                                         rt::describeBytes(bytes) +
                                         ": host memory is exhausted");
    std::lock_guard<std::mutex> lock(mutex);
    allocations[p] = bytes;
    return p;
  }

  Status free(void *pointer) override {
    if (!pointer)
      return Status::success();
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!allocations.erase(pointer))
        return KILN_ERROR(InvalidArgument,
                          "mgpuMemFree of " + pointerText(pointer) +
                              ", which mgpuMemAlloc did not return (or which "
                              "was freed already)");
    }
    std::free(pointer);
    return Status::success();
  }

  Status copy(void *dst, const void *src, size_t bytes, void *) override {
    if (bytes == 0)
      return Status::success();
    if (!dst || !src)
      return KILN_ERROR(InvalidArgument, "mgpuMemcpy of " +
                                             std::to_string(bytes) +
                                             " bytes with a null pointer");
    KILN_TRY(checkRange(dst, bytes, "mgpuMemcpy's destination (gpu.memcpy)"));
    KILN_TRY(checkRange(src, bytes, "mgpuMemcpy's source (gpu.memcpy)"));
    std::memmove(dst, src, bytes);
    return Status::success();
  }

  /// `bytes` at `p` wrap around the address space, or reach into an
  /// mgpuMemAlloc allocation they do not fit in: an error naming `what`.
  /// (Host memory the program allocated itself has no recorded size.)
  Status checkRange(const void *p, uint64_t bytes, const char *what) {
    auto lo = reinterpret_cast<uintptr_t>(p);
    std::lock_guard<std::mutex> lock(mutex);
    auto place = rt::placeRange(
        allocations, const_cast<void *>(p), lo, bytes,
        [](auto &e) { return reinterpret_cast<uintptr_t>(e.first); },
        [](auto &e) { return e.second; });
    std::string range =
        std::string(what) + " of " + std::to_string(bytes) + " bytes";
    switch (place.fit) {
    case rt::RangeFit::Outside:
    case rt::RangeFit::Inside:
      return Status::success();
    case rt::RangeFit::Wraps:
      return KILN_ERROR(InvalidArgument,
                        range + " wraps around the address space");
    case rt::RangeFit::Past:
      return KILN_ERROR(
          InvalidArgument,
          range + " at offset " +
              std::to_string(lo -
                             reinterpret_cast<uintptr_t>(place.at->first)) +
              " of a " + std::to_string(place.at->second) +
              "-byte allocation (gpu.alloc) reaches past its end");
    case rt::RangeFit::Into:
      break;
    }
    return KILN_ERROR(InvalidArgument,
                      range + " runs into a " +
                          std::to_string(place.at->second) +
                          "-byte allocation (gpu.alloc) it does not start in");
  }

  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    KILN_TRY(checkStream(stream, "mgpuMemset"));
    if (count == 0)
      return Status::success();
    if (!dst)
      return KILN_ERROR(InvalidArgument, "mgpuMemset" +
                                             std::to_string(8 * patternBytes) +
                                             " of a null pointer");
    if (count > SIZE_MAX / patternBytes)
      return KILN_ERROR(InvalidArgument, "mgpuMemset" +
                                             std::to_string(8 * patternBytes) +
                                             " of " + std::to_string(count) +
                                             " elements overflows a size");
    KILN_TRY(checkRange(dst, uint64_t(count) * patternBytes,
                        "mgpuMemset (gpu.memset)"));
    auto *bytes = static_cast<uint8_t *>(dst);
    for (size_t i = 0; i < count; ++i)
      std::memcpy(bytes + i * patternBytes, &value, patternBytes);
    return Status::success();
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    std::lock_guard<std::mutex> lock(mutex);
    timingCallback = callback;
    timingUser = user;
    return Status::success();
  }

  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    auto start = std::chrono::steady_clock::now();
    KILN_TRY(copy(dst, src, bytes, nullptr));
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now() - start)
        .count();
  }

  Status setDefaultDevice(int32_t device) override {
    if (device != 0)
      return KILN_ERROR(InvalidArgument,
                        "mgpuSetDefaultDevice(" + std::to_string(device) +
                            "): the spirv-cpu runtime has one device, the "
                            "host CPU (0)");
    return Status::success();
  }

  KilnSpirvCpuStats stats() {
    std::lock_guard<std::mutex> lock(mutex);
    KilnSpirvCpuStats s = counters;
    {
      Registry &r = registry();
      std::lock_guard<std::mutex> registryLock(r.mutex);
      s.registeredKernels = r.kernels.size();
    }
    return s;
  }

private:
  Status decode(const Kernel &kernel, void **params, size_t paramsCount,
                Launch &launch);

  std::mutex mutex;
  std::set<Module *> modules;
  std::set<Stream *> streams;
  std::set<Event *> events;
  std::map<void *, uint64_t> allocations;
  bool envTiming = false;
  /// What the program set (configure) over the environment.
  rt::Options options;
  bool workersStarted = false;
  KilnTimingCallback timingCallback = nullptr;
  void *timingUser = nullptr;
  KilnSpirvCpuStats counters = {};
};

Status SPIRVCPURuntime::decode(const Kernel &kernel, void **params,
                               size_t paramsCount, Launch &launch) {
  const container::KernelInfo &info = *kernel.info;
  std::string prefix = "kernel '" + kernel.name + "' ";
  size_t expected = rt::paramCount(info);
  if (paramsCount != expected)
    return KILN_ERROR(
        InvalidArgument,
        prefix + "takes " + std::to_string(expected) +
            " parameters (memrefs as allocated, aligned, offset, sizes, "
            "strides), but the launch passed " +
            std::to_string(paramsCount));
  if (paramsCount && !params)
    return KILN_ERROR(InvalidArgument,
                      prefix + "launched with a null parameter array");
  for (size_t i = 0; i < paramsCount; ++i)
    if (!params[i])
      return KILN_ERROR(InvalidArgument, prefix + "launched with parameter " +
                                             std::to_string(i) +
                                             " a null pointer");

  std::vector<uint8_t> &pc = launch.pushConstants;
  pc.assign(info.pushConstantSize, 0);
  auto writePC = [&](uint32_t offset, const void *value,
                     size_t bytes) -> Status {
    if (uint64_t(offset) + bytes > pc.size())
      return KILN_ERROR(InvalidArgument,
                        prefix + "has a push-constant field outside its "
                                 "block; the container is corrupt");
    std::memcpy(pc.data() + offset, value, bytes);
    return Status::success();
  };
  unsigned indexBytes = kernel.indexBits / 8;
  std::vector<uintptr_t> bases(info.args.size(), 0);
  std::vector<Extent> argExtents(info.args.size());
  size_t p = 0;
  for (size_t a = 0; a < info.args.size(); ++a) {
    const container::ArgInfo &arg = info.args[a];
    std::string argText = prefix + "argument " + std::to_string(a);
    if (arg.kind == ArgKind::Scalar) {
      uint8_t field[8];
      unsigned bytes = 0;
      if (std::string why = rt::scalarEncodingError(
              rt::encodeScalar(arg, params[p++], field, bytes), kernel.name, a);
          !why.empty())
        return KILN_ERROR(InvalidArgument, why);
      KILN_TRY(writePC(arg.pushConstantOffset, field, bytes));
      continue;
    }
    rt::MemRefParams m = rt::readMemRef(arg, params + p);
    p += 3 + 2 * arg.rank;
    if (std::string why = rt::checkBaseAlignment(arg, m); !why.empty())
      return KILN_ERROR(InvalidArgument, argText + " " + why);
    if (!m.empty)
      KILN_TRY(checkRange(reinterpret_cast<const void *>(m.lo), m.hi - m.lo,
                          (argText + ": its memref").c_str()));
    // The binding starts at the first element, so the pushed offset is 0.
    uintptr_t base = m.firstElement();
    bases[a] = base;
    argExtents[a].elementBytes = m.elementBytes;
    argExtents[a].lo = m.empty ? base : m.lo;
    argExtents[a].hi = m.empty ? base : m.hi;
    bool metadata = arg.hasMetadata();
    uint32_t metadataOffset = arg.pushConstantOffset;
    if (container::isAddressKind(arg.kind)) {
      uint64_t address = base;
      KILN_TRY(writePC(arg.pushConstantOffset, &address, 8));
      metadataOffset += 8;
    }
    if (!metadata)
      continue;
    std::vector<int64_t> fields{0};
    fields.insert(fields.end(), m.sizes.begin(), m.sizes.end());
    fields.insert(fields.end(), m.strides.begin(), m.strides.end());
    for (size_t f = 0; f < fields.size(); ++f) {
      if (indexBytes == 4) {
        if (fields[f] > INT32_MAX || fields[f] < INT32_MIN)
          return KILN_ERROR(InvalidArgument,
                            argText + " has a size or stride of " +
                                std::to_string(fields[f]) +
                                ", which does not fit the kernel's 32-bit "
                                "index (compile with use-64bit-index)");
        int32_t v = int32_t(fields[f]);
        KILN_TRY(writePC(metadataOffset + f * 4, &v, 4));
      } else {
        KILN_TRY(writePC(metadataOffset + f * 8, &fields[f], 8));
      }
    }
  }

  const KernelDesc &desc = *kernel.desc;
  launch.resources.assign(desc.numResources, nullptr);
  launch.extents.assign(desc.numResources, Extent());
  for (uint32_t r = 0; r < desc.numResources; ++r) {
    int a = kernel.resourceArgs[r];
    if (a == Kernel::kUnusedResource)
      continue;
    if (a >= 0) {
      launch.resources[r] = reinterpret_cast<void *>(bases[a]);
      launch.extents[r] = argExtents[a];
      continue;
    }
    launch.resources[r] = pc.empty() ? nullptr : pc.data();
    Extent &e = launch.extents[r];
    e.lo = reinterpret_cast<uintptr_t>(pc.data());
    e.hi = e.lo + pc.size();
    e.uniform = true;
  }
  return Status::success();
}

Status SPIRVCPURuntime::launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                               int32_t sharedMemoryBytes, void *stream,
                               void **params, size_t paramsCount) {
  auto start = std::chrono::steady_clock::now();
  auto *kernel = static_cast<Kernel *>(function);
  if (!kernel)
    return KILN_ERROR(InvalidArgument, "mgpuLaunchKernel with a null function");
  KILN_TRY(checkStream(stream, "mgpuLaunchKernel"));
  // Dynamic workgroup memory: whole elements of the kernel's array, at
  // least one, within the spirv-cpu target env's 64 KiB with the static.
  const KernelDesc &desc = *kernel->desc;
  uint32_t elementBytes = kernel->info->dynamicWorkgroupElementBytes;
  bool dynamic = desc.flags & kDynamicWorkgroup;
  if (sharedMemoryBytes < 0 || (!dynamic && sharedMemoryBytes != 0))
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name + "' launched with " +
                          std::to_string(sharedMemoryBytes) +
                          " bytes of dynamic shared memory, but it has " +
                          (dynamic ? "an array of them"
                                   : "none (no gpu.dynamic_shared_memory)"));
  uint64_t dynamicBytes = 0;
  if (dynamic) {
    if (elementBytes == 0)
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name +
                            "' has dynamic workgroup memory, but its "
                            "container gives no element size");
    uint64_t elements = std::max<uint64_t>(
        1, (uint64_t(sharedMemoryBytes) + elementBytes - 1) / elementBytes);
    dynamicBytes = elements * elementBytes;
    constexpr uint64_t kLimit = 65536;
    if (desc.workgroupMemoryBytes + dynamicBytes > kLimit)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name + "' launched with " +
              std::to_string(sharedMemoryBytes) +
              " bytes of dynamic shared memory; with its " +
              std::to_string(desc.workgroupMemoryBytes) +
              " bytes of static workgroup memory that is above the spirv-cpu "
              "target's limit of " +
              std::to_string(kLimit) + " (max_compute_shared_memory_size)");
  }
  const char *axes = "xyz";
  intptr_t grids[3] = {grid.x, grid.y, grid.z};
  intptr_t blocks[3] = {block.x, block.y, block.z};
  // An empty grid is refused, as on Vulkan and CUDA: a launch that silently
  // does nothing hides a wrong size computation.
  for (int i = 0; i < 3; ++i)
    if (grids[i] < 1 || uint64_t(grids[i]) > UINT32_MAX)
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel->name + "' launched with " +
                            std::to_string(grids[i]) + " workgroups in " +
                            axes[i] +
                            "; the spirv-cpu runtime allows 1 to 4294967295");
  const container::KernelInfo &info = *kernel->info;
  for (int i = 0; i < 3; ++i)
    if (blocks[i] < 0 || uint64_t(blocks[i]) != info.workgroupSize[i])
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel->name + "' was compiled for workgroup size (" +
              std::to_string(info.workgroupSize[0]) + ", " +
              std::to_string(info.workgroupSize[1]) + ", " +
              std::to_string(info.workgroupSize[2]) +
              ") but is launched with block size (" +
              std::to_string(blocks[0]) + ", " + std::to_string(blocks[1]) +
              ", " + std::to_string(blocks[2]) + ")");
  uint64_t invocations =
      uint64_t(blocks[0]) * uint64_t(blocks[1]) * uint64_t(blocks[2]);
  if (invocations == 0 || invocations > (1u << 20))
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name + "' has " +
                          std::to_string(invocations) +
                          " invocations per workgroup; the spirv-cpu runtime "
                          "runs 1 to 1048576");
  double timeoutSeconds = 0;
  std::optional<std::string> timeout;
  {
    std::lock_guard<std::mutex> lock(mutex);
    timeout = options.timeout;
  }
  if (std::string error; !rt::readTimeout(
          timeoutSeconds, error, rt::settingText(timeout, "KILN_TIMEOUT")))
    return KILN_ERROR(InvalidArgument, error);

  auto run = std::make_shared<Launch>();
  run->kernel = kernel;
  for (int i = 0; i < 3; ++i) {
    run->grid[i] = uint32_t(grids[i]);
    run->block[i] = uint32_t(blocks[i]);
  }
  // (Each count fits 32 bits; their product need not fit 64.)
  if (__builtin_mul_overflow(uint64_t(grids[0]), uint64_t(grids[1]),
                             &run->workgroups) ||
      __builtin_mul_overflow(run->workgroups, uint64_t(grids[2]),
                             &run->workgroups) ||
      run->workgroups > (uint64_t(1) << 48))
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel->name + "' launched with a grid of " +
                          std::to_string(grids[0]) + " x " +
                          std::to_string(grids[1]) + " x " +
                          std::to_string(grids[2]) +
                          " workgroups; the spirv-cpu runtime runs at most "
                          "2^48 in one launch");
  run->invocations = uint32_t(invocations);
  uint32_t flags = kernel->desc->flags;
  run->checked = flags & kChecked;
  run->dynamicWorkgroupBytes = uint32_t(dynamicBytes);
  // A large frame does not fit the worker's own stack.
  run->fibers = (flags & (kUsesBarrier | kUsesSubgroupOps | kChecked)) ||
                desc.stackBytes > kFastPathStackBytes;
  KILN_TRY(decode(*kernel, params, paramsCount, *run));

  KILN_ASSIGN_OR_RETURN(Executor * executor, workers());
  double executeUs = 0;
  Status status = executor->run(run, timeoutSeconds, executeUs);
  KilnTimingCallback callback;
  void *user;
  bool printTiming;
  {
    std::lock_guard<std::mutex> lock(mutex);
    printTiming = envTiming; // configure may change it on another thread
    ++counters.launches;
    counters.workgroups += run->workgroups;
    counters.fiberLaunches += run->fibers;
    counters.threads = executor->threads();
    callback = timingCallback;
    user = timingUser;
  }
  if (status)
    return status;
  double hostUs = std::chrono::duration<double, std::micro>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  if (printTiming)
    std::fprintf(stderr, "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f\n",
                 kernel->name.c_str(), executeUs, hostUs);
  if (callback)
    callback(user, kernel->name.c_str(), executeUs);
  return Status::success();
}

SPIRVCPURuntime &runtime() {
  // Never destroyed (JIT module destructors call in late).
  static SPIRVCPURuntime *instance = new SPIRVCPURuntime();
  return *instance;
}

/// What the mgpu* entry points do with an error: report it and exit.
constexpr rt::ExitOnError orExit{"kiln-spirv-cpu"};
} // namespace

rt::Runtime &rt::boundaryRuntime() { return runtime(); }
const char *const rt::kBoundaryName = "kiln-spirv-cpu";

extern "C" {

KILN_RT_EXPORT void __kiln_spirv_cpu_register(uint64_t spirvHash,
                                              const KernelDesc *desc,
                                              KernelFn fn) {
  if (!desc || !desc->name)
    return; // Nothing to key it by; mgpuModuleGetFunction will not find it.
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  // The same kernel registered again (the same code linked twice) is
  // harmless: the first one stays.
  r.kernels.emplace(std::make_pair(spirvHash, std::string(desc->name)),
                    Registered{desc, fn});
}

rt::Runtime *kilnSpirvCpuRuntime() { return &runtime(); }

int kilnSpirvCpuListDevices() {
  Expected<std::string> text = runtime().describeDevices();
  if (!text) {
    rt::printError("kiln-spirv-cpu", text.error());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  return 0;
}

void kilnSpirvCpuSetTimingCallback(KilnTimingCallback callback, void *user) {
  orExit(runtime().setTimingCallback(callback, user));
}

void kilnSpirvCpuGetStats(KilnSpirvCpuStats *stats) {
  if (stats)
    *stats = runtime().stats();
}

} // extern "C"
