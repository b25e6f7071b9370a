//===- Launcher.h - Kernel launches -----------------------------*- C++ -*-===//
//
// The top unit of the CUDA runtime: a launch checked against what
// mgpuModuleGetFunction learnt about the kernel (its stream and function
// looked up, the grid and block in range, the block within the kernel's
// limit, the parameters there, none of them another device's memory), then
// cuLaunchKernel, or cuLaunchKernelEx for a cluster launch, optionally timed
// with events. It reads the units below (Device, Memory, Executables,
// Queue); none of them calls it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_LAUNCHER_H
#define KILN_RUNTIME_CUDA_LAUNCHER_H

#include "Device.h"
#include "Executable.h"
#include "Memory.h"
#include "Queue.h"

#include <cstdint>
#include <string>

namespace kiln::cudart {

/// Launches kernels. Every method expects the caller to hold the runtime's
/// lock and the device's context to be current.
class Launcher {
public:
  Launcher(Device &device, const Memory &memory, const Executables &executables,
           const Queue &queue)
      : device(device), memory(memory), executables(executables), queue(queue) {
  }

  /// mgpuLaunchKernel, or mgpuLaunchClusterKernel when `cluster` is set.
  Status launch(CUfunction function, const intptr_t grid[3],
                const intptr_t block[3], const intptr_t *cluster, int32_t smem,
                CUstream stream, void **params, size_t paramsCount,
                void **extra);

  /// Times every later launch and reports it to `callback` (null: no
  /// more).
  void setTimingCallback(KilnTimingCallback callback, void *user) {
    timingCallback = callback;
    timingUser = user;
  }

  /// Launches that reached the driver.
  uint64_t launches() const { return launchCount; }

private:
  /// The checks of a launch of `info`'s kernel before the driver sees it.
  Status checkLaunch(const FunctionInfo &info, const intptr_t grid[3],
                     const intptr_t block[3], const intptr_t *cluster,
                     void **params, size_t paramsCount, void **extra);
  /// An error when a parameter holds an address in the memory of another
  /// device of the program's list (DevicePlace::checkLaunchMemory).
  Status checkForeignMemory(const FunctionInfo &info, void **params,
                            size_t paramsCount) const;
  /// cuLaunchKernel, or cuLaunchKernelEx with the cluster dimensions.
  Status enqueue(CUfunction function, const std::string &name,
                 const intptr_t grid[3], const intptr_t block[3],
                 const intptr_t *cluster, int32_t smem, CUstream stream,
                 void **params, void **extra);
  /// Launches are timed with events: KILN_CUDA_TIMING or a callback.
  bool timing() const { return device.envTiming() || timingCallback; }

  Device &device;
  const Memory &memory;
  const Executables &executables;
  const Queue &queue;
  KilnTimingCallback timingCallback = nullptr;
  void *timingUser = nullptr;
  uint64_t launchCount = 0;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_LAUNCHER_H
