//===- Launcher.cpp - Kernel launches -------------------------------------===//
//
// Every dimension of a launch must be at least 1 and fit in 32 bits, the
// block within what the compiled kernel can run; a cluster launch needs
// cuLaunchKernelEx (a CUDA 12 driver); no pointer parameter may be another
// device's gpu.alloc memory. A timed launch records events around the
// kernel and waits for it, then prints (KILN_CUDA_TIMING) or reports (the
// callback) its GPU time.
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

using namespace kiln;
using namespace kiln::cudart;

namespace {
std::string dims(const intptr_t d[3]) {
  return std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
         std::to_string(d[2]);
}
} // namespace

Status Launcher::launch(CUfunction function, const intptr_t grid[3],
                        const intptr_t block[3], const intptr_t *cluster,
                        int32_t smem, CUstream stream, void **params,
                        size_t paramsCount, void **extra) {
  KILN_TRY(queue.checkStream(stream, "mgpuLaunchKernel"));
  KILN_ASSIGN_OR_RETURN(const FunctionInfo *info, executables.infoOf(function));
  const std::string &name = info->name;
  KILN_TRY(
      checkLaunch(*info, grid, block, cluster, params, paramsCount, extra));
  KILN_TRY(checkForeignMemory(*info, params, paramsCount));
  const Driver &drv = device.driver();
  bool timed = timing();
  // The events that time the launch, destroyed on every path.
  CUevent start = nullptr, stop = nullptr;
  ScopeExit destroyEvents([&] {
    if (start)
      drv.cuEventDestroy(start);
    if (stop)
      drv.cuEventDestroy(stop);
  });
  auto hostStart = std::chrono::steady_clock::now();
  if (timed) {
    KILN_TRY(device.check(drv.cuEventCreate(&start, CU_EVENT_DEFAULT),
                          "cuEventCreate"));
    KILN_TRY(device.check(drv.cuEventCreate(&stop, CU_EVENT_DEFAULT),
                          "cuEventCreate"));
    KILN_TRY(device.check(drv.cuEventRecord(start, stream), "cuEventRecord"));
  }
  KILN_TRY(enqueue(function, name, grid, block, cluster, smem, stream, params,
                   extra));
  device.noteLaunch(stream, name);
  ++launchCount;
  if (!timed)
    return Status::success();
  KILN_TRY(device.check(drv.cuEventRecord(stop, stream), "cuEventRecord"));
  KILN_TRY(
      device.check(drv.cuEventSynchronize(stop), "cuEventSynchronize", name));
  double hostUs = std::chrono::duration<double, std::micro>(
                      std::chrono::steady_clock::now() - hostStart)
                      .count();
  float ms = 0;
  KILN_TRY(device.check(drv.cuEventElapsedTime(&ms, start, stop),
                        "cuEventElapsedTime"));
  if (device.envTiming())
    std::fprintf(stderr,
                 "kiln-timing kernel=%s gpu_us=%.3f host_us=%.3f device=%d\n",
                 name.c_str(), ms * 1000.0, hostUs, device.place().index);
  if (timingCallback)
    timingCallback(timingUser, name.c_str(), ms * 1000.0);
  return Status::success();
}

Status Launcher::checkLaunch(const FunctionInfo &info, const intptr_t grid[3],
                             const intptr_t block[3], const intptr_t *cluster,
                             void **params, size_t paramsCount, void **extra) {
  const std::string &name = info.name;
  for (int i = 0; i < 3; ++i) {
    if (grid[i] < 1 || grid[i] > 0x7fffffff || block[i] < 1 ||
        block[i] > 0x7fffffff)
      return KILN_ERROR(
          InvalidArgument,
          "kernel '" + name + "' launched with grid (" + dims(grid) +
              ") and block (" + dims(block) +
              "): every dimension must be at least 1 and fit in 32 bits");
  }
  int maxThreads = info.maxThreads;
  intptr_t threads = block[0] * block[1] * block[2];
  if (maxThreads > 0 && threads > maxThreads)
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + name + "' launched with block (" +
                          dims(block) + ") = " + std::to_string(threads) +
                          " threads; it can run at most " +
                          std::to_string(maxThreads) + " per block on device " +
                          device.deviceLabel(device.ordinal()));
  if (paramsCount > 0 && !params && !extra)
    return KILN_ERROR(InvalidArgument,
                      "kernel '" + name +
                          "' launched with params null and paramsCount " +
                          std::to_string(paramsCount));
  if (cluster && !device.driver().cuLaunchKernelEx)
    return KILN_ERROR(Unsupported, "kernel '" + name +
                                       "' is a cluster launch, which needs "
                                       "cuLaunchKernelEx (CUDA 12 driver)");
  return Status::success();
}

Status Launcher::checkForeignMemory(const FunctionInfo &info, void **params,
                                    size_t paramsCount) const {
  if (!params || !device.place().ownerOf)
    return Status::success();
  // CUDA's parameters are raw bytes: only the driver knows their sizes,
  // and only from CUDA 12.4 (cuFuncGetParamInfo). Each 8-byte parameter
  // whose value is not in this device's own allocations is asked about;
  // with an older driver nothing is checked, and another device's memory
  // reaches the kernel as it would without Kiln (a peer access where the
  // devices allow it, else an illegal address).
  size_t known = std::min(paramsCount, info.paramSizes.size());
  for (size_t i = 0; i < known; ++i) {
    if (info.paramSizes[i] != 8 || !params[i])
      continue;
    uint64_t value = 0;
    std::memcpy(&value, params[i], sizeof(value));
    if (value == 0 || memory.owns(static_cast<uintptr_t>(value)))
      continue;
    KILN_TRY(device.place().checkLaunchMemory(info.name, i,
                                              static_cast<uintptr_t>(value)));
  }
  return Status::success();
}

Status Launcher::enqueue(CUfunction function, const std::string &name,
                         const intptr_t grid[3], const intptr_t block[3],
                         const intptr_t *cluster, int32_t smem, CUstream stream,
                         void **params, void **extra) {
  const Driver &drv = device.driver();
  if (!cluster)
    return device.checkOn(
        stream,
        drv.cuLaunchKernel(
            function, static_cast<unsigned>(grid[0]),
            static_cast<unsigned>(grid[1]), static_cast<unsigned>(grid[2]),
            static_cast<unsigned>(block[0]), static_cast<unsigned>(block[1]),
            static_cast<unsigned>(block[2]), static_cast<unsigned>(smem),
            stream, params, extra),
        "cuLaunchKernel", name);
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(cluster[0]);
  attribute.value.clusterDim.y = static_cast<unsigned>(cluster[1]);
  attribute.value.clusterDim.z = static_cast<unsigned>(cluster[2]);
  CUlaunchConfig config = {};
  config.gridDimX = static_cast<unsigned>(grid[0]);
  config.gridDimY = static_cast<unsigned>(grid[1]);
  config.gridDimZ = static_cast<unsigned>(grid[2]);
  config.blockDimX = static_cast<unsigned>(block[0]);
  config.blockDimY = static_cast<unsigned>(block[1]);
  config.blockDimZ = static_cast<unsigned>(block[2]);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return device.checkOn(stream,
                        drv.cuLaunchKernelEx(&config, function, params, extra),
                        "cuLaunchKernelEx", name);
}
