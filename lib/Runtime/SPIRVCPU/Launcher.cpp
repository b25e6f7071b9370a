//===- Launcher.cpp - Launches over the host's cores ----------------------===//
//
// A launch's checks in the order they run, then its parameters decoded as
// the Vulkan runtime decodes them (through KernelArgs.h) into the
// push-constant block and the resources the compiled code reads.
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"
#include "../EnvFlag.h"
#include "../KernelArgs.h"
#include "../Timeout.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

using namespace kiln;
using namespace kiln::spirvcpu;
using container::ArgKind;
using rt::Expected;
using rt::Status;

Launcher::Launcher(Modules &modules, Memory &memory, Streams &streams,
                   rt::DevicePlace place)
    : modules(modules), memory(memory), streams(streams),
      place(std::move(place)) {
  envTiming = rt::envFlag("KILN_SPIRV_CPU_TIMING");
}

//===----------------------------------------------------------------------===//
// Options, workers, counters
//===----------------------------------------------------------------------===//

Status Launcher::configure(const rt::Options &given) {
  std::lock_guard<std::mutex> lock(mutex);
  if (given.threads && workersStarted)
    return KILN_ERROR(InvalidArgument,
                      "the spirv-cpu runtime's worker threads are set "
                      "before it starts; its workers run already");
  options.merge(given);
  envTiming = rt::settingFlag(options.timing, "KILN_SPIRV_CPU_TIMING");
  return Status::success();
}

Expected<unsigned> Launcher::threadShare(unsigned *configured) {
  std::optional<std::string> threads = threadsOption();
  KILN_ASSIGN_OR_RETURN(unsigned all,
                        Executor::configuredThreads(
                            rt::settingText(threads, "KILN_CPU_THREADS")));
  if (configured)
    *configured = all;
  return std::max(1u, all / unsigned(std::max(place.count, 1)));
}

Expected<Executor *> Launcher::workers() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!executor) {
    std::optional<std::string> threads = options.threads;
    KILN_ASSIGN_OR_RETURN(unsigned all,
                          Executor::configuredThreads(
                              rt::settingText(threads, "KILN_CPU_THREADS")));
    // This device's share (threadShare): the host's workers are divided
    // among the devices of the program's list.
    executor = std::make_unique<Executor>(
        std::max(1u, all / unsigned(std::max(place.count, 1))));
    workersStarted = true;
  }
  return executor.get();
}

std::optional<std::string> Launcher::threadsOption() {
  std::lock_guard<std::mutex> lock(mutex);
  return options.threads;
}

void Launcher::setTimingCallback(KilnTimingCallback callback, void *user) {
  std::lock_guard<std::mutex> lock(mutex);
  timingCallback = callback;
  timingUser = user;
}

void Launcher::setDeviceTimingCallback(KilnDeviceTimingCallback callback,
                                       void *user) {
  std::lock_guard<std::mutex> lock(mutex);
  deviceTimingCallback = callback;
  deviceTimingUser = user;
}

KilnSpirvCpuStats Launcher::stats() {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

//===----------------------------------------------------------------------===//
// The launch
//===----------------------------------------------------------------------===//

Status Launcher::launch(void *function, rt::Dim3 grid, rt::Dim3 block,
                        int32_t sharedMemoryBytes, void *stream, void **params,
                        size_t paramsCount) {
  Clock::time_point start = Clock::now();
  if (!function)
    return KILN_ERROR(InvalidArgument, "mgpuLaunchKernel with a null function");
  // Held to the end: an unload meanwhile leaves the kernel intact.
  KILN_ASSIGN_OR_RETURN(std::shared_ptr<const Kernel> kernel,
                        modules.lookupKernel(function, "mgpuLaunchKernel"));
  KILN_TRY(streams.checkStream(stream, "mgpuLaunchKernel"));
  KILN_ASSIGN_OR_RETURN(uint32_t dynamic,
                        dynamicBytes(*kernel, sharedMemoryBytes));
  auto run = std::make_shared<Launch>();
  run->kernel = kernel.get();
  run->owner = kernel;
  KILN_TRY(checkShape(*kernel, grid, block, *run));
  KILN_ASSIGN_OR_RETURN(double timeout, timeoutSeconds());
  KILN_TRY(countWorkgroups(*kernel, *run));
  const KernelDesc &desc = *kernel->desc;
  run->checked = desc.flags & kChecked;
  run->dynamicWorkgroupBytes = dynamic;
  // A large frame does not fit the worker's own stack.
  run->fibers = (desc.flags & (kUsesBarrier | kUsesSubgroupOps | kChecked)) ||
                desc.stackBytes > kFastPathStackBytes;
  KILN_TRY(decode(*kernel, params, paramsCount, *run));
  return execute(run, timeout, start);
}

Expected<uint32_t> Launcher::dynamicBytes(const Kernel &kernel,
                                          int32_t sharedMemoryBytes) {
  const KernelDesc &desc = *kernel.desc;
  uint32_t elementBytes = kernel.info->dynamicWorkgroupElementBytes;
  bool dynamic = desc.flags & kDynamicWorkgroup;
  if (sharedMemoryBytes < 0 || (!dynamic && sharedMemoryBytes != 0))
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel.name + "' launched with " +
                          std::to_string(sharedMemoryBytes) +
                          " bytes of dynamic shared memory, but it has " +
                          (dynamic ? "an array of them"
                                   : "none (no gpu.dynamic_shared_memory)"));
  if (!dynamic)
    return uint32_t(0);
  if (elementBytes == 0)
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel.name +
                          "' has dynamic workgroup memory, but its "
                          "container gives no element size");
  uint64_t elements = std::max<uint64_t>(
      1, (uint64_t(sharedMemoryBytes) + elementBytes - 1) / elementBytes);
  uint64_t bytes = elements * elementBytes;
  constexpr uint64_t kLimit = 65536;
  if (desc.workgroupMemoryBytes + bytes > kLimit)
    return KILN_ERROR(
        InvalidArgument,
        "kernel '" + kernel.name + "' launched with " +
            std::to_string(sharedMemoryBytes) +
            " bytes of dynamic shared memory; with its " +
            std::to_string(desc.workgroupMemoryBytes) +
            " bytes of static workgroup memory that is above the spirv-cpu "
            "target's limit of " +
            std::to_string(kLimit) + " (max_compute_shared_memory_size)");
  return uint32_t(bytes);
}

Status Launcher::checkShape(const Kernel &kernel, rt::Dim3 grid, rt::Dim3 block,
                            Launch &run) {
  const char *axes = "xyz";
  intptr_t grids[3] = {grid.x, grid.y, grid.z};
  intptr_t blocks[3] = {block.x, block.y, block.z};
  // An empty grid is refused, as on Vulkan and CUDA: a launch that silently
  // does nothing hides a wrong size computation.
  for (int i = 0; i < 3; ++i)
    if (grids[i] < 1 || uint64_t(grids[i]) > UINT32_MAX)
      return KILN_ERROR(InvalidArgument,
                        "kernel '" + kernel.name + "' launched with " +
                            std::to_string(grids[i]) + " workgroups in " +
                            axes[i] +
                            "; the spirv-cpu runtime allows 1 to 4294967295");
  const container::KernelInfo &info = *kernel.info;
  for (int i = 0; i < 3; ++i)
    if (blocks[i] < 0 || uint64_t(blocks[i]) != info.workgroupSize[i])
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + kernel.name + "' was compiled for workgroup size (" +
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
                      "kernel '" + kernel.name + "' has " +
                          std::to_string(invocations) +
                          " invocations per workgroup; the spirv-cpu runtime "
                          "runs 1 to 1048576");
  for (int i = 0; i < 3; ++i) {
    run.grid[i] = uint32_t(grids[i]);
    run.block[i] = uint32_t(blocks[i]);
  }
  run.invocations = uint32_t(invocations);
  return Status::success();
}

Expected<double> Launcher::timeoutSeconds() {
  std::optional<std::string> timeout;
  {
    std::lock_guard<std::mutex> lock(mutex);
    timeout = options.timeout;
  }
  double seconds = 0;
  if (std::string error; !rt::readTimeout(
          seconds, error, rt::settingText(timeout, "KILN_TIMEOUT")))
    return KILN_ERROR(InvalidArgument, error);
  return seconds;
}

Status Launcher::countWorkgroups(const Kernel &kernel, Launch &run) {
  const uint32_t *grid = run.grid;
  // (Each count fits 32 bits; their product need not fit 64.)
  if (__builtin_mul_overflow(uint64_t(grid[0]), uint64_t(grid[1]),
                             &run.workgroups) ||
      __builtin_mul_overflow(run.workgroups, uint64_t(grid[2]),
                             &run.workgroups) ||
      run.workgroups > (uint64_t(1) << 48))
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + kernel.name + "' launched with a grid of " +
                          std::to_string(grid[0]) + " x " +
                          std::to_string(grid[1]) + " x " +
                          std::to_string(grid[2]) +
                          " workgroups; the spirv-cpu runtime runs at most "
                          "2^48 in one launch");
  return Status::success();
}

Status Launcher::execute(const std::shared_ptr<Launch> &run, double timeout,
                         Clock::time_point start) {
  KILN_ASSIGN_OR_RETURN(Executor * executor, workers());
  double executeUs = 0;
  Status status = executor->run(run, timeout, executeUs);
  KilnTimingCallback callback;
  void *user;
  KilnDeviceTimingCallback deviceCallback;
  void *deviceUser;
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
    deviceCallback = deviceTimingCallback;
    deviceUser = deviceTimingUser;
  }
  if (status)
    return status;
  double hostUs =
      std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  const char *name = run->kernel->name.c_str();
  if (printTiming)
    std::fprintf(stderr,
                 "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f device=%d\n",
                 name, executeUs, hostUs, place.index);
  if (callback)
    callback(user, name, executeUs);
  if (deviceCallback)
    deviceCallback(deviceUser, name, place.index, executeUs);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Decoding the parameters
//===----------------------------------------------------------------------===//

namespace {
/// The push-constant block of a launch being decoded.
struct PushConstants {
  std::vector<uint8_t> &bytes;
  const std::string &prefix;

  Status write(uint32_t offset, const void *value, size_t size) {
    if (uint64_t(offset) + size > bytes.size())
      return KILN_ERROR(InvalidArgument,
                        prefix + "has a push-constant field outside its "
                                 "block; the container is corrupt");
    std::memcpy(bytes.data() + offset, value, size);
    return Status::success();
  }
};

/// Where a memref argument is bound: its first element, and the bytes it
/// may be accessed at.
struct BoundArg {
  uintptr_t base = 0;
  Extent extent;
};

/// Memref argument `index` (`arg`) from its expanded parameters at
/// `params`: placed against the allocations, its address and metadata
/// pushed. Memory that is no allocation of this device is host memory,
/// unless another device of the list allocated it (`place` refuses that:
/// all spirv-cpu memory is host memory, so it would silently work here but
/// nowhere else).
Status decodeMemRef(Memory &memory, const rt::DevicePlace &place,
                    const Kernel &kernel, size_t index,
                    const container::ArgInfo &arg, const std::string &argText,
                    void **params, PushConstants &pc, BoundArg &bound) {
  rt::MemRefParams m = rt::readMemRef(arg, params);
  if (std::string why = rt::checkBaseAlignment(arg, m); !why.empty())
    return KILN_ERROR(InvalidArgument, argText + " " + why);
  if (!m.empty) {
    auto *lo = reinterpret_cast<const void *>(m.lo);
    KILN_TRY(
        memory.checkRange(lo, m.hi - m.lo, (argText + ": its memref").c_str()));
    if (!memory.owns(lo))
      KILN_TRY(place.checkLaunchMemory(kernel.name, index, m.lo));
  }
  // The binding starts at the first element, so the pushed offset is 0.
  uintptr_t base = m.firstElement();
  bound.base = base;
  bound.extent.elementBytes = m.elementBytes;
  bound.extent.lo = m.empty ? base : m.lo;
  bound.extent.hi = m.empty ? base : m.hi;
  uint32_t metadataOffset = arg.pushConstantOffset;
  if (container::isAddressKind(arg.kind)) {
    uint64_t address = base;
    KILN_TRY(pc.write(arg.pushConstantOffset, &address, 8));
    metadataOffset += 8;
  }
  if (!arg.hasMetadata())
    return Status::success();
  std::vector<int64_t> fields{0};
  fields.insert(fields.end(), m.sizes.begin(), m.sizes.end());
  fields.insert(fields.end(), m.strides.begin(), m.strides.end());
  for (size_t f = 0; f < fields.size(); ++f) {
    if (kernel.indexBits / 8 != 4) {
      KILN_TRY(pc.write(metadataOffset + f * 8, &fields[f], 8));
      continue;
    }
    if (fields[f] > INT32_MAX || fields[f] < INT32_MIN)
      return KILN_ERROR(InvalidArgument,
                        argText + " has a size or stride of " +
                            std::to_string(fields[f]) +
                            ", which does not fit the kernel's 32-bit "
                            "index (compile with use-64bit-index)");
    int32_t v = int32_t(fields[f]);
    KILN_TRY(pc.write(metadataOffset + f * 4, &v, 4));
  }
  return Status::success();
}

/// Each resource of the kernel's KernelDesc: the memref argument bound
/// there, the push-constant block, or null.
void bindResources(const Kernel &kernel, const std::vector<BoundArg> &args,
                   Launch &launch) {
  const KernelDesc &desc = *kernel.desc;
  std::vector<uint8_t> &pc = launch.pushConstants;
  launch.resources.assign(desc.numResources, nullptr);
  launch.extents.assign(desc.numResources, Extent());
  for (uint32_t r = 0; r < desc.numResources; ++r) {
    int a = kernel.resourceArgs[r];
    if (a == Kernel::kUnusedResource)
      continue;
    if (a >= 0) {
      launch.resources[r] = reinterpret_cast<void *>(args[a].base);
      launch.extents[r] = args[a].extent;
      continue;
    }
    launch.resources[r] = pc.empty() ? nullptr : pc.data();
    Extent &e = launch.extents[r];
    e.lo = reinterpret_cast<uintptr_t>(pc.data());
    e.hi = e.lo + pc.size();
    e.uniform = true;
  }
}
} // namespace

Status Launcher::decode(const Kernel &kernel, void **params, size_t paramsCount,
                        Launch &launch) {
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

  launch.pushConstants.assign(info.pushConstantSize, 0);
  PushConstants pc{launch.pushConstants, prefix};
  std::vector<BoundArg> bound(info.args.size());
  size_t p = 0;
  for (size_t a = 0; a < info.args.size(); ++a) {
    const container::ArgInfo &arg = info.args[a];
    if (arg.kind == ArgKind::Scalar) {
      uint8_t field[8];
      unsigned bytes = 0;
      if (std::string why = rt::scalarEncodingError(
              rt::encodeScalar(arg, params[p++], field, bytes), kernel.name, a);
          !why.empty())
        return KILN_ERROR(InvalidArgument, why);
      KILN_TRY(pc.write(arg.pushConstantOffset, field, bytes));
      continue;
    }
    KILN_TRY(decodeMemRef(memory, place, kernel, a, arg,
                          prefix + "argument " + std::to_string(a), params + p,
                          pc, bound[a]));
    p += 3 + 2 * arg.rank;
  }
  bindResources(kernel, bound, launch);
  return Status::success();
}
