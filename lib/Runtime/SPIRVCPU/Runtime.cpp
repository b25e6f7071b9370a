//===- Runtime.cpp - The mgpu* ABI on the host CPU ------------------------===//
//
// The spirv-cpu runtime's C++ interface (kiln/Runtime/Runtime.h) over its
// units, in a one-way order: Modules (the registry that compiled kernels
// join from their constructors, and modules: Kiln containers matched to
// registered kernels by the hash of their SPIR-V), Memory (host memory and
// the ranges placed against it) and Streams (stream and event handles),
// then the Launcher over them (launch checks, argument decoding as the
// Vulkan runtime does through KernelArgs.h, the Executor's workers, timing
// and counters). As the Vulkan runtime, one implementation behind two
// doors: kilnSpirvCpuRuntime() returns errors, the mgpu* entry points
// (Common/MGPU.cpp) report them and exit; the kiln* ones are here.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "../Boundary.h"
#include "../EnvFlag.h"
#include "../Format.h"
#include "Launcher.h"
#include "Memory.h"
#include "Modules.h"
#include "Streams.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Expected;
using rt::Status;

namespace {
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

class SPIRVCPURuntime final : public rt::Runtime {
public:
  const char *backend() const override { return "spirv-cpu"; }

  Status configure(const rt::Options &given) override {
    return launcher.configure(given);
  }

  Status initialize() override {
    KILN_ASSIGN_OR_RETURN(Executor * executor, launcher.workers());
    (void)executor;
    return Status::success();
  }

  Expected<std::string> describeDevices() override {
    std::optional<std::string> given = launcher.threadsOption();
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
    return modules.load(data, size);
  }
  Status unloadModule(void *module) override { return modules.unload(module); }
  Expected<void *> getFunction(void *module, const char *name) override {
    return modules.getFunction(module, name);
  }

  Status launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                int32_t sharedMemoryBytes, void *stream, void **params,
                size_t paramsCount) override {
    return launcher.launch(function, grid, block, sharedMemoryBytes, stream,
                           params, paramsCount);
  }

  Expected<void *> createStream() override { return streams.createStream(); }
  Status destroyStream(void *stream) override {
    return streams.destroyStream(stream);
  }
  Status synchronize(void *stream) override {
    // Everything completed at its call.
    return streams.checkStream(stream, "mgpuStreamSynchronize");
  }

  // Launches complete before they return: events and waits order nothing,
  // but their handles are checked.
  Expected<void *> createEvent() override { return streams.createEvent(); }
  Status destroyEvent(void *event) override {
    return streams.checkEvent(event, "mgpuEventDestroy", /*destroy=*/true);
  }
  Status recordEvent(void *event, void *stream) override {
    KILN_TRY(streams.checkEvent(event, "mgpuEventRecord"));
    return streams.checkStream(stream, "mgpuEventRecord");
  }
  Status synchronizeEvent(void *event) override {
    return streams.checkEvent(event, "mgpuEventSynchronize");
  }
  Status streamWaitEvent(void *stream, void *event) override {
    KILN_TRY(streams.checkStream(stream, "mgpuStreamWaitEvent"));
    return streams.checkEvent(event, "mgpuStreamWaitEvent");
  }

  Expected<void *> allocate(uint64_t bytes, bool) override {
    return memory.allocate(bytes);
  }
  Status free(void *pointer) override { return memory.free(pointer); }
  Status copy(void *dst, const void *src, size_t bytes, void *) override {
    return memory.copy(dst, src, bytes);
  }
  Status fill(void *dst, uint32_t value, unsigned patternBytes, size_t count,
              void *stream) override {
    KILN_TRY(streams.checkStream(stream, "mgpuMemset"));
    return memory.fill(dst, value, patternBytes, count);
  }
  Expected<double> deviceCopy(void *dst, const void *src,
                              size_t bytes) override {
    return memory.deviceCopy(dst, src, bytes);
  }

  Status setTimingCallback(KilnTimingCallback callback, void *user) override {
    launcher.setTimingCallback(callback, user);
    return Status::success();
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
    KilnSpirvCpuStats s = launcher.stats();
    s.registeredKernels = registeredKernelCount();
    return s;
  }

private:
  // In their dependency order: the Launcher uses the three before it.
  Modules modules;
  Memory memory;
  Streams streams;
  Launcher launcher{modules, memory, streams};
};

SPIRVCPURuntime &runtime() {
  // Never destroyed (JIT module destructors call in late).
  static SPIRVCPURuntime *instance = new SPIRVCPURuntime();
  return *instance;
}

/// What the kiln* entry points do with an error: report it and exit.
constexpr rt::ExitOnError orExit{"kiln-spirv-cpu"};
} // namespace

rt::Runtime &rt::boundaryRuntime() { return runtime(); }
const char *const rt::kBoundaryName = "kiln-spirv-cpu";

extern "C" {

KILN_RT_EXPORT void __kiln_spirv_cpu_register(uint64_t spirvHash,
                                              const KernelDesc *desc,
                                              KernelFn fn) {
  registerKernel(spirvHash, desc, fn);
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
