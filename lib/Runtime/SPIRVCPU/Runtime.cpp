//===- Runtime.cpp - The mgpu* ABI on the host CPU ------------------------===//
//
// The spirv-cpu runtime's C++ interface (kiln/Runtime/Runtime.h) over its
// units, in a one-way order: Modules (the registry that compiled kernels
// join from their constructors, and modules: Kiln containers matched to
// registered kernels by the hash of their SPIR-V), Memory (host memory and
// the ranges placed against it) and Streams (stream and event handles),
// then the Launcher over them (launch checks, argument decoding as the
// Vulkan runtime does through KernelArgs.h, the Executor's workers, timing
// and counters). SPIRVCPURuntime (DeviceRuntime.h) composes them into one
// device; the process's runtime is an rt::DeviceList of those, one per
// entry of KILN_SPIRV_CPU_DEVICE (or --device). As the Vulkan runtime, one
// implementation behind two doors: kilnSpirvCpuRuntime() returns errors,
// the mgpu* entry points (Common/MGPU.cpp) report them and exit; the kiln*
// ones are here.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/Runtime.h"
#include "../Boundary.h"
#include "../DeviceChoice.h"
#include "../EnvFlag.h"
#include "../Format.h"
#include "DeviceRuntime.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Expected;
using rt::Status;

std::string kiln::spirvcpu::cpuModel() {
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

//===----------------------------------------------------------------------===//
// One device
//===----------------------------------------------------------------------===//

namespace {
/// What is wrong with `entry`, one entry of the device list, for the
/// spirv-cpu runtime, whose one device is the host CPU: success for "",
/// "0", "cpu" or a part of the CPU's model name.
Status checkEntry(const std::string &entry) {
  if (entry.empty())
    return Status::success();
  std::string lower = entry;
  for (char &c : lower)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "cpu")
    return Status::success();
  std::string model = cpuModel();
  size_t index = 0;
  std::string device = ":\n  0: " + model;
  switch (rt::matchDevice(entry, {model}, index)) {
  case rt::DeviceMatch::Found:
    return Status::success();
  case rt::DeviceMatch::IndexOutOfRange:
    return KILN_ERROR(InvalidArgument,
                      "spirv-cpu device index " + entry +
                          " is out of range; the spirv-cpu runtime has one "
                          "device, the host CPU" +
                          device);
  case rt::DeviceMatch::NoSuchUUID:
    return KILN_ERROR(InvalidArgument,
                      "no spirv-cpu device has UUID '" + entry +
                          "'; the spirv-cpu runtime has one device, the "
                          "host CPU, which has no UUID" +
                          device);
  case rt::DeviceMatch::NoSuchName:
    break;
  }
  return KILN_ERROR(InvalidArgument,
                    "no spirv-cpu device named '" + entry +
                        "'; the spirv-cpu runtime has one device, the host "
                        "CPU (0, \"cpu\" or a part of its name)" +
                        device);
}
} // namespace

SPIRVCPURuntime::SPIRVCPURuntime(rt::DevicePlace place)
    : place(place), launcher(modules, memory, streams, std::move(place)) {}

SPIRVCPURuntime::~SPIRVCPURuntime() = default;

Status SPIRVCPURuntime::entryError() {
  std::lock_guard<std::mutex> lock(mutex);
  return badEntry;
}

Status SPIRVCPURuntime::configure(const rt::Options &given) {
  // The entry is this device's alone: the list (rt::DeviceList) read the
  // environment's list and hands each device its entry.
  if (given.device) {
    Status checked = checkEntry(*given.device);
    std::lock_guard<std::mutex> lock(mutex);
    badEntry = checked;
    if (checked)
      return checked;
  }
  return launcher.configure(given);
}

Status SPIRVCPURuntime::initialize() {
  KILN_TRY(entryError());
  KILN_ASSIGN_OR_RETURN(Executor * executor, launcher.workers());
  (void)executor;
  return Status::success();
}

Expected<std::string> SPIRVCPURuntime::describeDevices() {
  std::optional<std::string> given = launcher.threadsOption();
  unsigned configured = 0;
  KILN_ASSIGN_OR_RETURN(unsigned threads, launcher.threadShare(&configured));
  std::string source = given ? "as the program asked"
                       : std::getenv("KILN_CPU_THREADS")
                           ? "KILN_CPU_THREADS"
                           : "hardware concurrency";
  rt::LocalRank local;
  if (!given && !std::getenv("KILN_CPU_THREADS") &&
      rt::launcherLocalRank(local) && local.size > 1)
    source += " shared by the launcher's " + std::to_string(local.size) +
              " ranks on this node";
  // Each device of the list is the host CPU with its share of the workers.
  if (place.count > 1)
    source += "; this device's share of " + std::to_string(configured) +
              " among " + std::to_string(place.count) + " devices";
  std::string text;
  rt::appendf(text, "0: %s\n", cpuModel().c_str());
  rt::appendf(text, "  type: CPU (spirv-cpu: kernels compiled to host code)\n");
  rt::appendf(text, "  worker threads: %u (%s)\n", threads, source.c_str());
  rt::appendf(text, "  subgroup size: %u\n", kSubgroupSize);
  rt::appendf(text, "  fiber stack: %zu KiB per invocation\n",
              kFiberStackBytes / 1024);
  return text;
}

Expected<std::string> SPIRVCPURuntime::deviceTarget() {
  return std::string("spirv-cpu");
}

Expected<void *> SPIRVCPURuntime::loadModule(const void *data, size_t size) {
  return modules.load(data, size);
}
Status SPIRVCPURuntime::unloadModule(void *module) {
  return modules.unload(module);
}
Expected<void *> SPIRVCPURuntime::getFunction(void *module, const char *name) {
  return modules.getFunction(module, name);
}

Status SPIRVCPURuntime::launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                               int32_t sharedMemoryBytes, void *stream,
                               void **params, size_t paramsCount) {
  KILN_TRY(entryError());
  return launcher.launch(function, grid, block, sharedMemoryBytes, stream,
                         params, paramsCount);
}

Expected<void *> SPIRVCPURuntime::createStream() {
  return streams.createStream();
}
Status SPIRVCPURuntime::destroyStream(void *stream) {
  return streams.destroyStream(stream);
}
Status SPIRVCPURuntime::synchronize(void *stream) {
  // Everything completed at its call.
  return streams.checkStream(stream, "mgpuStreamSynchronize");
}

// Launches complete before they return: events and waits order nothing, but
// their handles are checked.
Expected<void *> SPIRVCPURuntime::createEvent() {
  return streams.createEvent();
}
Status SPIRVCPURuntime::destroyEvent(void *event) {
  return streams.checkEvent(event, "mgpuEventDestroy", /*destroy=*/true);
}
Status SPIRVCPURuntime::recordEvent(void *event, void *stream) {
  KILN_TRY(streams.checkEvent(event, "mgpuEventRecord"));
  return streams.checkStream(stream, "mgpuEventRecord");
}
Status SPIRVCPURuntime::synchronizeEvent(void *event) {
  return streams.checkEvent(event, "mgpuEventSynchronize");
}
Status SPIRVCPURuntime::streamWaitEvent(void *stream, void *event) {
  KILN_TRY(streams.checkStream(stream, "mgpuStreamWaitEvent"));
  return streams.checkEvent(event, "mgpuStreamWaitEvent");
}

Expected<void *> SPIRVCPURuntime::allocate(uint64_t bytes, bool) {
  return memory.allocate(bytes);
}
Status SPIRVCPURuntime::free(void *pointer) { return memory.free(pointer); }
Status SPIRVCPURuntime::copy(void *dst, const void *src, size_t bytes, void *) {
  return memory.copy(dst, src, bytes);
}
Status SPIRVCPURuntime::fill(void *dst, uint32_t value, unsigned patternBytes,
                             size_t count, void *stream) {
  KILN_TRY(streams.checkStream(stream, "mgpuMemset"));
  return memory.fill(dst, value, patternBytes, count);
}
Expected<double> SPIRVCPURuntime::deviceCopy(void *dst, const void *src,
                                             size_t bytes) {
  return memory.deviceCopy(dst, src, bytes);
}

Expected<bool> SPIRVCPURuntime::copyFromPeer(void *dst, rt::Runtime &source,
                                             const void *src, size_t bytes) {
  auto *peer = dynamic_cast<SPIRVCPURuntime *>(&source);
  if (!peer)
    return false;
  if (bytes == 0)
    return true;
  if (!dst || !src)
    return KILN_ERROR(InvalidArgument, "mgpuMemcpy of " +
                                           std::to_string(bytes) +
                                           " bytes with a null pointer");
  KILN_TRY(
      memory.checkRange(dst, bytes, "mgpuMemcpy's destination (gpu.memcpy)"));
  KILN_TRY(
      peer->memory.checkRange(src, bytes, "mgpuMemcpy's source (gpu.memcpy)"));
  std::memmove(dst, src, bytes);
  return true;
}

Status SPIRVCPURuntime::setTimingCallback(KilnTimingCallback callback,
                                          void *user) {
  launcher.setTimingCallback(callback, user);
  return Status::success();
}

Status
SPIRVCPURuntime::setDeviceTimingCallback(KilnDeviceTimingCallback callback,
                                         void *user) {
  launcher.setDeviceTimingCallback(callback, user);
  return Status::success();
}

Status SPIRVCPURuntime::setDefaultDevice(int32_t device) {
  if (device != 0)
    return KILN_ERROR(InvalidArgument,
                      "mgpuSetDefaultDevice(" + std::to_string(device) +
                          ") on a single spirv-cpu device, which is device "
                          "0 of its own; the process's runtime chooses among "
                          "the devices of its list");
  return Status::success();
}

KilnSpirvCpuStats SPIRVCPURuntime::stats() {
  KilnSpirvCpuStats s = launcher.stats();
  s.registeredKernels = registeredKernelCount();
  return s;
}

std::unique_ptr<rt::Runtime> kiln::spirvcpu::makeDevice(rt::DevicePlace place) {
  return std::make_unique<SPIRVCPURuntime>(std::move(place));
}

//===----------------------------------------------------------------------===//
// The process's runtime
//===----------------------------------------------------------------------===//

namespace {
rt::DeviceList &deviceList() {
  // Never destroyed (JIT module destructors call in late).
  static rt::DeviceList *list =
      new rt::DeviceList("spirv-cpu", "KILN_SPIRV_CPU_DEVICE", makeDevice);
  return *list;
}

/// What the kiln* entry points do with an error: report it and exit.
constexpr rt::ExitOnError orExit{"kiln-spirv-cpu"};
} // namespace

rt::Runtime &rt::boundaryRuntime() { return deviceList(); }
const char *const rt::kBoundaryName = "kiln-spirv-cpu";

extern "C" {

KILN_RT_EXPORT void __kiln_spirv_cpu_register(uint64_t spirvHash,
                                              const KernelDesc *desc,
                                              KernelFn fn) {
  registerKernel(spirvHash, desc, fn);
}

rt::Runtime *kilnSpirvCpuRuntime() { return &deviceList(); }

int kilnSpirvCpuListDevices() {
  Expected<std::string> text = deviceList().describeDevices();
  if (!text) {
    rt::printError("kiln-spirv-cpu", text.error());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  return 0;
}

void kilnSpirvCpuSetTimingCallback(KilnTimingCallback callback, void *user) {
  orExit(deviceList().setTimingCallback(callback, user));
}

void kilnSpirvCpuGetStats(KilnSpirvCpuStats *stats) {
  if (!stats)
    return;
  // The calling thread's current device's counters (each device counts its
  // own launches and runs its own workers); a device that cannot be made
  // (a bad entry in the list) has counted nothing.
  Expected<rt::Runtime *> device = deviceList().current();
  if (!device) {
    *stats = KilnSpirvCpuStats();
    stats->registeredKernels = registeredKernelCount();
    return;
  }
  *stats = static_cast<SPIRVCPURuntime *>(*device)->stats();
}

} // extern "C"
