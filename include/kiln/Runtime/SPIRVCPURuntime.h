//===- SPIRVCPURuntime.h - Kiln's spirv-cpu runtime, C interface -*- C -*-===//
//
// libkiln_spirv_cpu_runtime implements upstream MLIR's `mgpu*` host ABI on
// the host CPU, for programs whose GPU modules were compiled with the
// spirv-cpu target: their kernels are host functions that register
// themselves (kiln/Contract/SPIRVCPUABI.h) and run every workgroup and
// invocation of a launch on a pool of worker threads (docs/spirv-cpu.md).
// It links no LLVM and no MLIR. Launches, copies and fills complete before
// the call returns; streams and events are handles.
//
// Configuration comes from the environment:
//   KILN_SPIRV_CPU_DEVICE=LIST  the program's devices, comma-separated
//                               (default: one); every entry is the host CPU
//                               ("", "0", "cpu" or a part of its model
//                               name), each an independent device with its
//                               own share of the worker threads
//   KILN_CPU_THREADS=N          worker threads (default: the hardware's
//                               concurrency), divided among the devices
//                               (at least 1 each), read at a device's
//                               first launch
//   KILN_SPIRV_CPU_TIMING=1     one line per launch on stderr:
//                               kiln-timing kernel=NAME gpu_us=.. host_us=..
//                               device=N
//                               (gpu_us: the time the workers ran it; N:
//                               the device's index in the list)
//   KILN_TIMEOUT=SECONDS        the longest a launch may run, read at each
//                               launch; past it the process ends
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPURUNTIME_H
#define KILN_RUNTIME_SPIRVCPURUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/Contract/MGPU.h"
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

//===-- Upstream's mgpu* ABI: kiln/Contract/MGPU.h ------------------------===//

// On spirv-cpu: mgpuModuleLoad takes a Kiln container whose kernels were
// compiled for the CPU and registered (__kiln_spirv_cpu_register) under the
// hash of its SPIR-V; mgpuLaunchKernel runs the whole grid before it
// returns; mgpuMemAlloc gives host memory, 64-byte aligned, which only the
// device that allocated it may launch on (another device of the list
// refuses it). mgpuSetDefaultDevice picks an entry of the device list (0
// until it is called, per thread).

//===-- Kiln's own entry points -------------------------------------------===//

/// Prints the devices (CPU model, worker threads, subgroup size) to
/// stdout. Returns 0, or non-zero after printing why it could not.
KILN_RT_EXPORT int kilnSpirvCpuListDevices(void);

#ifndef KILN_TIMING_CALLBACK_DEFINED
#define KILN_TIMING_CALLBACK_DEFINED
/// Receives the time of each launch, in microseconds, once it completed.
typedef void (*KilnTimingCallback)(void *user, const char *kernel,
                                   double gpuMicroseconds);
#endif
/// Reports the wall time the workers ran each later launch to `callback`
/// (null: off). It runs on the launching thread.
KILN_RT_EXPORT void kilnSpirvCpuSetTimingCallback(KilnTimingCallback callback,
                                                  void *user);

/// Counters, for tests and benchmarks: the calling thread's current
/// device's (each device of the list counts its own launches and runs its
/// own workers), with the kernels the whole process registered.
typedef struct KilnSpirvCpuStats {
  uint64_t launches;
  uint64_t workgroups;
  /// Launches whose invocations ran as fibers (barriers, subgroup
  /// operations or checked mode).
  uint64_t fiberLaunches;
  /// Kernels registered by compiled code.
  uint64_t registeredKernels;
  /// The device's worker threads (0 before its first launch).
  uint64_t threads;
} KilnSpirvCpuStats;
KILN_RT_EXPORT void kilnSpirvCpuGetStats(KilnSpirvCpuStats *stats);

#ifdef __cplusplus
}

namespace kiln {
namespace rt {
class Runtime;
} // namespace rt
} // namespace kiln
/// The spirv-cpu runtime's C++ interface, whose calls return errors instead
/// of exiting (kiln/Runtime/Runtime.h). It lives until the process ends.
extern "C" KILN_RT_EXPORT kiln::rt::Runtime *kilnSpirvCpuRuntime(void);
#endif

#endif // KILN_RUNTIME_SPIRVCPURUNTIME_H
